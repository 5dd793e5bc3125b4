import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {useFakeHost} from '../../../test/helpers/fake-host.js'
import HooksList from '../src/commands/hooks/list.js'

const fake = useFakeHost('hanzo-hooks-cmd-')
const answer = fake.answer
const run = (argv: string[]) => fake.run(HooksList, argv)

describe('hooks list', () => {
  it('lists each hook with the program it starts, never the rest of its command line, and never runs one', async () => {
    const mark = join(fake.box.home, 'ran')
    answer({
      settings: {
        hooks: [
          {command: `touch ${mark} --token SECRET`, event: 'pre_tool_use', tier: 'user', tool_pattern: 'fs_*'},
          {command: 'TOKEN=SECRET exit 2', event: 'stop', fail_open: true, tier: 'local', timeout_ms: 250},
          {command: 'x', event: 'on_everything'},
        ],
      },
    })
    const {result, stderr, stdout} = await run([])
    expect(result?.hooks[0]).toMatchObject({
      event: 'pre_tool_use',
      fail_open: false,
      program: 'touch',
      tier: 'user',
      timeout_ms: 5000,
      tool_pattern: 'fs_*',
    })
    expect(result?.hooks[1]).toEqual({
      event: 'stop',
      fail_open: true,
      index: 1,
      path: 'builtin',
      program: 'exit',
      tier: 'local',
      timeout_ms: 250,
      tool_pattern: '*',
    })
    expect(result?.hooks[2]).toEqual({index: 2, problem: expect.stringContaining('unknown event "on_everything"')})
    expect(stdout).toContain('✓ hooks[0] pre_tool_use  (user)')
    expect(stdout).toContain('    tools     fs_*')
    expect(stdout).toContain('    timeout   250 ms, fail open')
    expect(stdout).toMatch(/✗ hooks\[2\] +invalid: unknown event/)
    expect(stdout + stderr).not.toContain('SECRET')
    expect(existsSync(mark)).toBe(false)
  })

  it("lists an untrusted project's hooks as not trusted, never as none configured", async () => {
    answer({
      settings: {hooks: []},
      untrusted: {hooks: [{command: 'exit 2', event: 'stop', tier: 'project'}], mcp_servers: {}, status: 'untrusted'},
    })
    const {result, stdout} = await run([])
    expect(result?.hooks).toEqual([
      {
        event: 'stop',
        fail_open: false,
        index: 0,
        path: 'builtin',
        program: 'exit',
        tier: 'project',
        timeout_ms: 5000,
        tool_pattern: '*',
        trusted: false,
      },
    ])
    expect(stdout).toContain('! hooks[0] stop  (project)  not trusted')
    expect(stdout).toContain(
      "not trusted: this project's settings are not trusted (run hanzo-dev trust to review and trust them)",
    )
    expect(stdout).not.toContain('No hooks configured')
  })

  it('refuses a hooks setting that is not a list', async () => {
    answer({settings: {hooks: {event: 'stop'}}})
    const {error} = await run([])
    expect(error?.message).toMatch(/"hooks" must be a list/)
    expect(error?.oclif?.exit).toBe(1)
  })
})
