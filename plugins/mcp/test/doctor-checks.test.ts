import {existsSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {useSandboxDirs} from '../../../test/helpers/cli.js'
import {mcpChecks} from '../src/doctor-checks.js'

const dirs = useSandboxDirs('hanzo-mcp-', 'project', 'bin')

const host = (mcp_servers: unknown) => ({env: {PATH: dirs.bin}, projectRoot: dirs.project, settings: {mcp_servers}})

/** A server that leaves a mark if anything ever starts it. */
function installServer(dir: string, name: string): string {
  const path = join(dir, name)
  writeFileSync(path, `#!/bin/sh\ntouch '${join(dirs.box.home, `started-${name}`)}'\n`, {mode: 0o755})
  return path
}

describe('mcpChecks', () => {
  it('says so when no servers are configured', async () => {
    expect(await mcpChecks(host(undefined))).toEqual([expect.objectContaining({id: 'mcp.config', status: 'skip'})])
  })

  it('checks each server by its transport and never starts one', async () => {
    const onPath = installServer(dirs.bin, 'mcp-everything')
    const local = installServer(dirs.project, 'server.sh')
    const checks = await mcpChecks(
      host({
        everything: {args: ['--api-key', 'sk-secret'], command: 'mcp-everything'},
        local: {command: './server.sh'},
        off: {command: 'not-installed', disabled: true},
        remote: {headers: {Authorization: '[redacted]'}, url: 'https://mcp.example.com/mcp?key=sk-secret'},
      }),
    )
    expect(checks).toEqual([
      {
        detail: `stdio mcp-everything (${onPath})`,
        id: 'mcp.server.everything',
        status: 'ok',
        title: 'MCP server everything',
      },
      {detail: `stdio ./server.sh (${local})`, id: 'mcp.server.local', status: 'ok', title: 'MCP server local'},
      {detail: 'disabled (stdio not-installed)', id: 'mcp.server.off', status: 'skip', title: 'MCP server off'},
      {
        detail: 'http https://mcp.example.com/mcp?key=[redacted]',
        id: 'mcp.server.remote',
        status: 'ok',
        title: 'MCP server remote',
      },
    ])
    expect(JSON.stringify(checks)).not.toContain('sk-secret')
    expect(existsSync(join(dirs.box.home, 'started-mcp-everything'))).toBe(false)
    expect(existsSync(join(dirs.box.home, 'started-server.sh'))).toBe(false)
  })

  it('fails a stdio server whose command is missing, with a hint', async () => {
    const checks = await mcpChecks(host({github: {command: 'github-mcp'}, spaced: {command: 'npx -y server'}}))
    expect(checks[0]).toMatchObject({
      detail: 'stdio github-mcp: not found on PATH',
      hint: expect.stringContaining('"disabled": true'),
      status: 'fail',
    })
    expect(checks[1]).toMatchObject({
      hint: 'the command is one program; put its arguments in mcp_servers.spaced.args',
      status: 'fail',
    })
  })

  it('warns about each server of an untrusted project, naming what to run, and never looks it up', async () => {
    const untrusted = {
      hooks: [],
      mcp_servers: {fs: {command: 'not-installed', tier: 'project'}},
      status: 'changed' as const,
    }
    expect(await mcpChecks({...host(undefined), untrusted})).toEqual([
      {
        detail: "not trusted (stdio not-installed, project): this project's settings changed since you trusted them",
        hint: 'run hanzo-dev trust to review and trust them again',
        id: 'mcp.untrusted.fs',
        status: 'warn',
        title: 'MCP server fs',
      },
    ])
  })

  it('fails a malformed server, naming it, and skips a disabled one whatever its shape', async () => {
    const checks = await mcpChecks(host({broken: {url: 'ftp://x'}, gone: {disabled: true}}))
    expect(checks[0]).toMatchObject({
      detail: 'mcp_servers.broken: "url" must be an http:// or https:// URL',
      status: 'fail',
    })
    expect(checks[1]).toMatchObject({detail: 'disabled', status: 'skip'})
  })
})
