import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {format} from 'node:util'
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'

import {makeSandbox, type Sandbox} from '../../../test/helpers/cli.js'
import McpList from '../src/commands/mcp/list.js'

// The command in-process against a stand-in for the running hanzo-dev: a package whose
// `loadHostContext` answers what host.json says (the settings rules themselves are the core's,
// tested there and end to end in test/e2e/plugin-commands.test.ts).
let box: Sandbox
let root: string

beforeEach(() => {
  box = makeSandbox('hanzo-mcp-cmd-')
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
    const result = await McpList.run(argv, root)
    return {...output(), error: undefined, result}
  } catch (error) {
    return {...output(), error: error as Error & {oclif?: {exit?: number}}, result: undefined}
  } finally {
    log.mockRestore()
    err.mockRestore()
  }
}

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
    const {result, stderr, stdout} = await run([])
    expect(result).toEqual({
      servers: [
        {enabled: true, name: 'broken', problem: expect.stringContaining('"command"'), transport: null},
        {enabled: true, name: 'fs', program: 'npx', tier: 'user', transport: 'stdio'},
        {enabled: false, name: 'off', transport: 'http', url: 'http://localhost:9/mcp'},
      ],
    })
    expect(stdout).toMatch(/^broken +enabled +invalid: /m)
    expect(stdout).toMatch(/^fs +enabled +stdio npx +\(user\)$/m)
    expect(stdout).toMatch(/^off +disabled +http +http:\/\/localhost:9\/mcp$/m)
    expect(stdout + stderr).not.toContain('SECRET')
    expect(stderr).toContain('/p/.hanzo/settings.json: nope: unknown setting')
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
