import {existsSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {format} from 'node:util'
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'

import {makeSandbox, type Sandbox} from '../../../test/helpers/cli.js'
import HooksList from '../src/commands/hooks/list.js'

// The command in-process against a stand-in for the running hanzo-dev: a package whose
// `loadHostContext` answers what host.json says (the settings rules themselves are the core's,
// tested there and end to end in test/e2e/plugin-commands.test.ts).
let box: Sandbox
let root: string

beforeEach(() => {
  box = makeSandbox('hanzo-hooks-cmd-')
  root = join(box.home, 'cli')
  mkdirSync(root)
  writeFileSync(join(root, 'package.json'), JSON.stringify({main: 'host.js', name: 'fake-hanzo-dev', type: 'module', version: '0.0.0'}))
  writeFileSync(
    join(root, 'host.js'),
    `import {readFileSync} from 'node:fs'
export async function loadHostContext({cwd, env}) {
  const answer = JSON.parse(readFileSync(new URL('host.json', import.meta.url), 'utf8'))
  if (answer.error) throw Object.assign(new Error(answer.error), {name: 'ConfigError'})
  const {projectRoot = cwd, settings = {}, warnings = []} = answer
  return {host: {configDir: '', cwd, dataDir: '', env: {...env, ...answer.env}, projectRoot, settings}, warnings}
}\n`,
  )
})
afterEach(() => box.cleanup())

const answer = (value: unknown) => writeFileSync(join(root, 'host.json'), JSON.stringify(value))

/** oclif prints through console.log / console.error; vitest would take those for itself. */
async function run(argv: string[]) {
  const stdout: string[] = []
  const stderr: string[] = []
  const log = vi.spyOn(console, 'log').mockImplementation((...a) => void stdout.push(format(...a)))
  const err = vi.spyOn(console, 'error').mockImplementation((...a) => void stderr.push(format(...a)))
  const output = () => ({stderr: stderr.join('\n'), stdout: stdout.join('\n')})
  try {
    const result = await HooksList.run(argv, root)
    return {...output(), error: undefined, result}
  } catch (error) {
    return {...output(), error: error as Error & {oclif?: {exit?: number}}, result: undefined}
  } finally {
    log.mockRestore()
    err.mockRestore()
  }
}

describe('hooks list', () => {
  it('lists each hook with the program it starts, never the rest of its command line, and never runs one', async () => {
    const mark = join(box.home, 'ran')
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
    expect(result?.hooks[0]).toMatchObject({event: 'pre_tool_use', fail_open: false, program: 'touch', tier: 'user', timeout_ms: 5000, tool_pattern: 'fs_*'})
    expect(result?.hooks[1]).toEqual({event: 'stop', fail_open: true, index: 1, path: 'builtin', program: 'exit', tier: 'local', timeout_ms: 250, tool_pattern: '*'})
    expect(result?.hooks[2]).toEqual({index: 2, problem: expect.stringContaining('unknown event "on_everything"')})
    expect(stdout).toContain('✓ hooks[0] pre_tool_use  (user)')
    expect(stdout).toContain('    tools     fs_*')
    expect(stdout).toContain('    timeout   250 ms, fail open')
    expect(stdout).toMatch(/✗ hooks\[2\] +invalid: unknown event/)
    expect(stdout + stderr).not.toContain('SECRET')
    expect(existsSync(mark)).toBe(false)
  })

  it('refuses a hooks setting that is not a list', async () => {
    answer({settings: {hooks: {event: 'stop'}}})
    const {error} = await run([])
    expect(error?.message).toMatch(/"hooks" must be a list/)
    expect(error?.oclif?.exit).toBe(1)
  })
})
