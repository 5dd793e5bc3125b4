import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {makeSandbox, REPO_ROOT, runCli, type Sandbox} from '../helpers/cli.js'

// bin/run.js reaches oclif by a shorter road than oclif's stock `execute()` (bench/RESULTS.md):
// narrow entry points, imports made together, the core plugins prebuilt, the platform read
// without wsl-utils. One behaviour: for the same input both must print the same, byte for byte,
// and exit alike, successes and errors.
const STOCK = join(REPO_ROOT, 'test', 'support', 'stock-oclif-entry.js')

describe('bin/run.js prints what oclif stock execute() prints', () => {
  let box: Sandbox
  let settingsFile: string
  beforeAll(() => {
    box = makeSandbox()
    mkdirSync(join(box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    settingsFile = join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json')
  })
  afterAll(() => box.cleanup())

  async function both(args: string[]) {
    const [ours, stock] = await Promise.all([runCli(args, {cwd: box.home, env: box.env}), runCli(args, {bin: STOCK, cwd: box.home, env: box.env})])
    expect({exitCode: ours.exitCode, stderr: ours.stderr, stdout: ours.stdout}).toEqual({exitCode: stock.exitCode, stderr: stock.stderr, stdout: stock.stdout})
    return ours
  }

  it.each([
    [['--version']],
    [['--help']],
    [['config', 'get', '--help']],
    [['config', 'get', 'model']],
    [['config', 'get', 'model', '--json']],
    [['config', 'get', 'sandbox.mode']],
    [['config', 'get', 'nope']],
    [['config', 'get', 'nope', '--json']],
    [['config', 'get', 'model', '--bogus']],
    [['config', 'get', 'model', '--bogus', '--json']],
    [['config', 'get']],
  ])('%j with a valid settings file', async (args) => {
    writeFileSync(settingsFile, '{"model": "parity-model"}\n')
    const result = await both(args)
    if (args.join(' ') === 'config get model') expect(result.stdout).toBe('parity-model')
  })

  it.each([[['config', 'get', 'model']], [['config', 'get', 'model', '--json']]])('%j with a malformed settings file', async (args) => {
    writeFileSync(settingsFile, '{"model": \n')
    const result = await both(args)
    expect(result.exitCode).not.toBe(0)
  })
})
