import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {format} from 'node:util'
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'

import {makeSandbox, type Sandbox} from '../../../test/helpers/cli.js'
import SandboxStatus from '../src/commands/sandbox/status.js'

// The command in-process against a stand-in for the running hanzo-dev: a package whose
// `loadHostContext` answers what host.json says (the settings rules themselves are the core's,
// tested there and end to end in test/e2e/plugin-commands.test.ts).
let box: Sandbox
let root: string

beforeEach(() => {
  box = makeSandbox('hanzo-sandbox-cmd-')
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
    const result = await SandboxStatus.run(argv, root)
    return {...output(), error: undefined, result}
  } catch (error) {
    return {...output(), error: error as Error & {oclif?: {exit?: number}}, result: undefined}
  } finally {
    log.mockRestore()
    err.mockRestore()
  }
}

describe('sandbox status', () => {
  it('reports the configured mode and the isolation the real probes give it', async () => {
    answer({settings: {sandbox: {allowed_paths: ['/srv/data'], mode: 'allowlist'}}})
    const {result, stdout} = await run([])
    expect(result).toMatchObject({allowed_paths: ['/srv/data'], defaulted: false, mode: 'allowlist', platform: process.platform})
    const works = {bwrap: result!.bubblewrap.works, unshare: result!.unshare.works}
    expect(result?.enforcement).toBe(works.bwrap ? 'bwrap' : works.unshare ? 'unshare' : 'path-checks')
    expect(stdout).toMatch(/^mode +allowlist \(settings\)$/m)
    expect(stdout).toMatch(/^allowed +\/srv\/data$/m)
  })

  it('finds no sandbox tool on an empty PATH and falls back to path checks', async () => {
    answer({env: {PATH: join(box.home, 'empty')}, settings: {sandbox: {mode: 'workspace'}}})
    const {result, stdout} = await run([])
    if (process.platform === 'linux') {
      expect(result?.bubblewrap).toEqual({probed: true, works: false})
      expect(result?.unshare).toEqual({probed: true, works: false})
      expect(stdout).toMatch(/^bubblewrap +not found on PATH$/m)
    }

    expect(result?.enforcement).toBe('path-checks')
    expect(stdout).toMatch(/^isolation +path checks only/m)
  })

  it('turns a settings section it cannot read into one message and exit 1', async () => {
    answer({settings: {sandbox: 'on'}})
    const {error} = await run([])
    expect(error?.message).toMatch(/"sandbox" must be an object/)
    expect(error?.oclif?.exit).toBe(1)
  })
})
