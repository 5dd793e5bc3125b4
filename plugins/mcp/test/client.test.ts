import {getEventListeners} from 'node:events'
import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {McpConnection} from '../src/connection.js'
import {statusItem} from '../src/slash.js'
import {FILESYSTEM, httpEverything, servers, stdioEverything, tempDir} from './mcp-fixtures.js'

// Real servers from npm: server-everything over stdio, streamable HTTP and HTTP+SSE, and
// server-filesystem. One of each per file.
describe('the MCP client against real servers', () => {
  let temp: Awaited<ReturnType<typeof tempDir>>
  let http: Awaited<ReturnType<typeof httpEverything>>
  let sse: Awaited<ReturnType<typeof httpEverything>>

  beforeAll(async () => {
    temp = await tempDir()
    ;[http, sse] = await Promise.all([httpEverything('streamableHttp'), httpEverything('sse')])
  })

  afterAll(async () => {
    await Promise.all([http?.close(), sse?.close()])
    await temp?.remove()
  })

  it('connects over stdio, lists normalized tools and calls one; closing ends the process group; stderr goes to the log', async () => {
    const mcp = await servers([stdioEverything()], temp.dir)
    await mcp.start()
    const names = mcp.tools().map((t) => t.name)
    expect(names).toContain('mcp__everything__echo')
    expect(names).toContain('mcp__everything__get-sum')
    const echo = mcp.tools().find((t) => t.name === 'mcp__everything__echo')!
    expect(echo.mutating).toBe(true)
    const turn = new AbortController().signal
    const result = await echo.execute({message: 'hello'}, {cwd: temp.dir, sessionId: 's', signal: turn})
    expect(result).toEqual({error: null, is_error: false, output: 'Echo: hello'})
    // The calls of a turn share its signal: a finished call leaves nothing attached to it.
    for (let i = 0; i < 12; i++) await echo.execute({message: `m${i}`}, {cwd: temp.dir, sessionId: 's', signal: turn})
    expect(getEventListeners(turn, 'abort')).toHaveLength(0)
    const pid = mcp.connection('everything')!.pid!
    expect(() => process.kill(pid, 0)).not.toThrow()
    await mcp.close()
    expect(() => process.kill(pid, 0)).toThrow()
    expect(await readFile(join(temp.dir, 'mcp', 'logs', 'everything.log'), 'utf8')).toMatch(/STDIO/)
  })

  it('maps images and errors faithfully', async () => {
    const mcp = await servers([stdioEverything()], temp.dir)
    await mcp.start()
    const context = {cwd: temp.dir, sessionId: 's', signal: new AbortController().signal}
    const image = await mcp
      .tools()
      .find((t) => t.name === 'mcp__everything__get-tiny-image')!
      .execute({}, context)
    // A picture every provider takes goes to the model as an image, after a line saying what it is.
    expect(image.output).toMatch(/\[image image\/png, \d+ bytes: follows\]/)
    expect(image.images).toEqual([{data: expect.any(String), mediaType: 'image/png', name: 'image', type: 'image'}])
    const bad = await mcp
      .tools()
      .find((t) => t.name === 'mcp__everything__get-sum')!
      .execute({a: 'x'}, context)
    expect(bad.is_error).toBe(true)
    await mcp.close()
  })

  it('connects over streamable HTTP, and falls back to HTTP+SSE for a server that only speaks that', async () => {
    const mcp = await servers(
      [
        {disabled: false, name: 'remote', transport: {type: 'http', url: new URL(http.url)}},
        {disabled: false, name: 'legacy', transport: {type: 'http', url: new URL(sse.url)}},
      ],
      temp.dir,
    )
    await mcp.start()
    expect(mcp.status().map((s) => [s.name, s.state, s.http])).toEqual([
      ['remote', 'connected', 'streamable-http'],
      ['legacy', 'connected', 'sse'],
    ])
    const context = {cwd: temp.dir, sessionId: 's', signal: new AbortController().signal}
    for (const name of ['mcp__remote__echo', 'mcp__legacy__echo']) {
      expect(
        (
          await mcp
            .tools()
            .find((t) => t.name === name)!
            .execute({message: name}, context)
        ).output,
      ).toBe(`Echo: ${name}`)
    }

    await mcp.close()
  })

  it('reports a server that never answers initialize by name, and the others still start', async () => {
    const warnings: string[] = []
    const mute = {
      disabled: false,
      name: 'mute',
      startupTimeoutMs: 800,
      transport: {args: ['-e', 'setInterval(() => {}, 1000)'], command: process.execPath, type: 'stdio' as const},
    }
    const missing = {
      disabled: false,
      name: 'missing',
      transport: {args: [], command: 'hanzo-no-such-server', type: 'stdio' as const},
    }
    const mcp = await servers([mute, missing, stdioEverything()], temp.dir, warnings)
    await mcp.start()
    expect(mcp.status().map((s) => [s.name, s.state])).toEqual([
      ['mute', 'failed'],
      ['missing', 'failed'],
      ['everything', 'connected'],
    ])
    expect(statusItem(mcp.status())).toBe('mcp: 1/3 (2 failed: /mcp)')
    expect(warnings).toEqual([
      expect.stringMatching(/^MCP server "missing" cannot start: hanzo-no-such-server not found/),
      expect.stringMatching(/^MCP server "mute" did not start within 800 ms/),
    ])
    // The resource reader comes with a server that has resources, after the servers' tools.
    expect(mcp.tools().every((t) => t.name.startsWith('mcp__everything__') || t.name === 'mcp_read_resource')).toBe(
      true,
    )
    await mcp.close()
  })

  it('rejects a call in flight when the server dies, and the next call reconnects', async () => {
    const mcp = await servers([stdioEverything()], temp.dir)
    await mcp.start()
    const context = {cwd: temp.dir, sessionId: 's', signal: new AbortController().signal}
    const slow = mcp.tools().find((t) => t.name === 'mcp__everything__trigger-long-running-operation')!
    const pending = slow.execute({duration: 20, steps: 2}, context)
    const {pid} = mcp.connection('everything')!
    process.kill(-pid!, 'SIGKILL')
    const failed = await pending
    expect(failed.is_error).toBe(true)
    expect(failed.error).toMatch(
      /MCP server "everything" failed calling trigger-long-running-operation: .*Connection closed/,
    )
    const echo = mcp.tools().find((t) => t.name === 'mcp__everything__echo')!
    expect((await echo.execute({message: 'again'}, context)).output).toBe('Echo: again')
    expect(mcp.connection('everything')!.pid).not.toBe(pid)
    await mcp.close()
  })

  it('drops its tool cache when the server says its tools changed (list_changed)', async () => {
    const connection = new McpConnection({
      cwd: temp.dir,
      dataDir: temp.dir,
      env: process.env,
      server: stdioEverything(),
    })
    let changed = 0
    const heard = new Promise<void>((resolve) => {
      connection['options'].onToolsChanged = () => {
        changed++
        resolve()
      }
    })
    await connection.connect()
    await heard
    expect(changed).toBeGreaterThan(0)
    // After the notice the list is fetched again, with the tools registered after initialize.
    expect((await connection.tools()).map((t) => t.name)).toContain('simulate-research-query')
    await connection.close()
  })

  it('works with server-filesystem, confined to the directory it is given', async () => {
    const mcp = await servers(
      [
        {
          disabled: false,
          name: 'fs',
          transport: {args: [FILESYSTEM, temp.dir], command: process.execPath, type: 'stdio'},
        },
      ],
      temp.dir,
    )
    await mcp.start()
    const context = {cwd: temp.dir, sessionId: 's', signal: new AbortController().signal}
    const write = mcp.tools().find((t) => t.name === 'mcp__fs__write_file')!
    expect((await write.execute({content: 'hi from mcp', path: join(temp.dir, 'note.txt')}, context)).is_error).toBe(
      false,
    )
    expect(await readFile(join(temp.dir, 'note.txt'), 'utf8')).toBe('hi from mcp')
    const outside = await mcp
      .tools()
      .find((t) => t.name === 'mcp__fs__read_text_file')!
      .execute({path: '/etc/hostname'}, context)
    expect(outside.is_error).toBe(true)
    await mcp.close()
  })
})
