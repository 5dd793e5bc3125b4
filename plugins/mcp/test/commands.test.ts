import {describe, expect, it} from 'vitest'

import {useFakeHost} from '../../../test/helpers/fake-host.js'
import McpList from '../src/commands/mcp/list.js'

const fake = useFakeHost('hanzo-mcp-cmd-')
const answer = fake.answer
const run = (argv: string[]) => fake.run(McpList, argv)

describe('mcp list', () => {
  it('returns each server without its arguments, environment, headers or URL secrets', async () => {
    answer({
      settings: {
        mcp_servers: {
          broken: {command: 42},
          fs: {args: ['--token', 'SECRET'], command: 'npx', env: {TOKEN: 'SECRET'}, tier: 'user'},
          off: {disabled: true, url: 'http://u:SECRET@localhost:9/mcp?key=SECRET'},
        },
      },
      warnings: [{file: '/p/.hanzo/settings.json', keyPath: 'nope', message: 'unknown setting'}],
    })
    const {result, stderr, stdout} = await run(['--offline'])
    expect(result).toEqual({
      servers: [
        {enabled: true, name: 'broken', problem: expect.stringContaining('"command"'), transport: null},
        {enabled: true, name: 'fs', program: 'npx', args: ['--token', '[redacted]'], tier: 'user', transport: 'stdio'},
        // The path is no secret; the user info and a key-like query value are.
        {enabled: false, name: 'off', transport: 'http', url: 'http://[redacted]@localhost:9/mcp?key=[redacted]'},
      ],
    })
    expect(stdout).toMatch(/^broken +enabled +invalid: /m)
    expect(stdout).toMatch(/^fs +enabled +stdio npx --token \[redacted\] +\(user\)$/m)
    expect(stdout).toMatch(/^off +disabled +http +http:\/\/\[redacted\]@localhost:9\/mcp\?key=\[redacted\]$/m)
    expect(stdout + stderr).not.toContain('SECRET')
    expect(stderr).toContain('/p/.hanzo/settings.json: nope: unknown setting')
  })

  it("lists an untrusted project's servers as not trusted, never as none configured", async () => {
    answer({
      settings: {mcp_servers: {}},
      untrusted: {
        hooks: [],
        mcp_servers: {fs: {args: ['[redacted]'], command: 'npx', tier: 'project'}},
        status: 'untrusted',
      },
    })
    const {result, stdout} = await run([])
    expect(result).toEqual({
      servers: [
        {
          args: ['[redacted]'],
          enabled: false,
          name: 'fs',
          program: 'npx',
          tier: 'project',
          transport: 'stdio',
          trusted: false,
        },
      ],
    })
    expect(stdout).toMatch(/^fs {2}not trusted {2}stdio npx \[redacted\] {2}\(project\)$/m)
    expect(stdout).toContain(
      "not trusted: this project's settings are not trusted (run hanzo-dev trust to review and trust them)",
    )
    expect(stdout).not.toContain('No MCP servers configured')
  })

  it('turns a settings error into one message and exit 1', async () => {
    answer({error: 'Invalid JSON in /p/.hanzo/settings.json at line 2, column 1'})
    const {error} = await run([])
    expect(error?.message).toBe('Invalid JSON in /p/.hanzo/settings.json at line 2, column 1')
    expect(error?.oclif?.exit).toBe(1)
  })

  it('refuses an mcp_servers that is not a map', async () => {
    answer({settings: {mcp_servers: ['fs']}})
    const {error} = await run([])
    expect(error?.message).toMatch(/"mcp_servers" must map server names/)
    expect(error?.oclif?.exit).toBe(1)
  })
})
