import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import type {McpServers} from '../src/servers.js'
import {servers, tempDir} from './mcp-fixtures.js'

const GROWING = fileURLToPath(new URL('fixtures/growing-server.mjs', import.meta.url))

describe('tools/list_changed', () => {
  let temp: Awaited<ReturnType<typeof tempDir>>
  let mcp: McpServers
  const offered: string[][] = []

  beforeAll(async () => {
    temp = await tempDir()
    mcp = await servers(
      [{disabled: false, name: 'growing', transport: {args: [GROWING], command: process.execPath, type: 'stdio'}}],
      join(temp.dir),
    )
    mcp.onChange((tools) => offered.push(tools.map((t) => t.name)))
    await mcp.start()
  })

  afterAll(async () => {
    await mcp?.close()
    await temp?.remove()
  })

  it('has the tool a call added in the list the moment the call returns: the next model request offers it', async () => {
    expect(mcp.tools().map((t) => t.name)).toEqual(['mcp__growing__grow'])
    const grow = mcp.tools()[0]
    const context = {cwd: temp.dir, sessionId: 's', signal: new AbortController().signal}
    for (const n of [1, 2]) {
      const result = await grow.execute({}, context)
      expect(result.output).toBe(`added grown_${n}`)
      // No waiting: what the agent loop reads right after the result is the new list.
      expect(mcp.tools().map((t) => t.name)).toContain(`mcp__growing__grown_${n}`)
      expect(offered.at(-1)).toContain(`mcp__growing__grown_${n}`)
    }
  })
})
