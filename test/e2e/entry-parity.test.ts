import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {makeSandbox, REPO_ROOT, runCli, type Sandbox} from '../helpers/cli.js'

// bin/run.js reaches oclif by a shorter road than oclif's stock `execute()` (bench/RESULTS.md):
// narrow entry points, imports made together, the core plugins prebuilt, the platform read
// without wsl-utils. One behaviour: for the same input both must print the same, byte for byte,
// and exit alike, successes and errors. `config get KEY [--json]` is answered without oclif when
// it succeeds plainly (src/cli/fast-config-get.ts); every other case must reach oclif.
const STOCK = join(REPO_ROOT, 'test', 'support', 'stock-oclif-entry.js')
const RECORDER = pathToFileURL(join(REPO_ROOT, 'bench', 'record-modules.js')).href

describe('bin/run.js prints what oclif stock execute() prints', () => {
  let box: Sandbox
  let settingsFile: string
  beforeAll(() => {
    box = makeSandbox()
    mkdirSync(join(box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    settingsFile = join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json')
  })
  afterAll(() => box.cleanup())

  async function both(args: string[], {cwd = box.home, env = {}}: {cwd?: string; env?: Record<string, string>} = {}) {
    const options = {cwd, env: {...box.env, ...env}}
    const [ours, stock] = await Promise.all([runCli(args, options), runCli(args, {...options, bin: STOCK})])
    expect({exitCode: ours.exitCode, stderr: ours.stderr, stdout: ours.stdout}).toEqual({
      exitCode: stock.exitCode,
      stderr: stock.stderr,
      stdout: stock.stdout,
    })
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
    [['config', 'get', 'model', 'extra']],
    [['config', 'get', '--json', 'model']],
    [['config', 'get', 'model', '-h']],
    [['config', 'get', '--', 'model']],
    [['config', 'get', 'permissions.exec(git status*)']],
  ])('%j with a valid settings file', async (args) => {
    writeFileSync(settingsFile, '{"model": "parity-model"}\n')
    const result = await both(args)
    if (args.join(' ') === 'config get model') expect(result.stdout).toBe('parity-model')
  })

  it.each([[['config', 'get', 'model']], [['config', 'get', 'model', '--json']]])(
    '%j with a malformed settings file',
    async (args) => {
      writeFileSync(settingsFile, '{"model": \n')
      const result = await both(args)
      expect(result.exitCode).not.toBe(0)
    },
  )

  it.each([[['config', 'get', 'model']], [['config', 'get', 'model', '--json']]])(
    '%j with the key from the environment, with a debug or oclif variable',
    async (args) => {
      writeFileSync(settingsFile, '{"model": "parity-model"}\n')
      expect((await both(args, {env: {HANZO_MODEL: 'env-model'}})).stdout).toContain('env-model')
      await both(args, {env: {HANZO_DEV_CONTENT_TYPE: 'json'}})
      await both(args, {env: {HANZO_DEV_DEBUG: '1'}})
      // oclif's debug output carries times and the entry's path: the same stdout, and the debug lines.
      const options = {cwd: box.home, env: {...box.env, DEBUG: '*'}}
      const [ours, stock] = await Promise.all([runCli(args, options), runCli(args, {...options, bin: STOCK})])
      expect({exitCode: ours.exitCode, stdout: ours.stdout}).toEqual({exitCode: stock.exitCode, stdout: stock.stdout})
      expect(ours.stderr).toContain('oclif:main')
    },
  )

  it.each([
    [['config', 'get', 'mcp_servers.srv']],
    [['config', 'get', 'mcp_servers', '--json']],
    [['config', 'get', 'mcp_servers.srv.env.API_TOKEN']],
  ])('%j of a redacted secret', async (args) => {
    writeFileSync(
      settingsFile,
      JSON.stringify({mcp_servers: {srv: {command: 'node', env: {API_TOKEN: 'SECRET-TOKEN'}}}}),
    )
    const result = await both(args)
    expect(result.stdout).not.toContain('SECRET-TOKEN')
  })

  it.each([[['config', 'get', 'model']], [['config', 'get', 'model', '--json']], [['config', 'get', 'modle']]])(
    '%j with a settings warning (an unknown key in the file)',
    async (args) => {
      writeFileSync(settingsFile, '{"model": "parity-model", "modle": "typo"}\n')
      await both(args)
    },
  )

  it.each([[['config', 'get', 'model']], [['config', 'get', 'model', '--json']]])(
    '%j in an untrusted project: the warning shown once, by either entry',
    async (args) => {
      writeFileSync(settingsFile, '{"model": "parity-model"}\n')
      const repo = join(box.home, 'repo')
      mkdirSync(join(repo, '.hanzo'), {recursive: true})
      writeFileSync(join(repo, '.hanzo', 'settings.json'), JSON.stringify({mcp_servers: {srv: {command: 'node'}}}))
      const store = join(box.env.XDG_DATA_HOME, 'hanzo-dev', 'trusted-projects.json')
      // One after the other, each from no record: the store remembers that the warning was shown.
      rmSync(store, {force: true})
      const ours = await runCli(args, {cwd: repo, env: box.env})
      rmSync(store, {force: true})
      const stock = await runCli(args, {bin: STOCK, cwd: repo, env: box.env})
      expect(ours.stderr).toContain('not trusted')
      expect(ours).toEqual(stock)
    },
  )

  it.each([[['config', 'get', 'model']], [['config', 'get', 'model', '--json']]])(
    '%j with a linked user plugin',
    async (args) => {
      writeFileSync(settingsFile, '{"model": "parity-model"}\n')
      await withUserPlugin(() => both(args))
    },
  )

  /** Runs `run` with examples/plugin-hello linked as `plugins link` would leave it. */
  async function withUserPlugin<T>(run: () => Promise<T>): Promise<T> {
    const dataDir = join(box.env.XDG_DATA_HOME, 'hanzo-dev')
    mkdirSync(dataDir, {recursive: true})
    const plugin = {name: 'hanzo-dev-plugin-hello', root: join(REPO_ROOT, 'examples', 'plugin-hello'), type: 'link'}
    writeFileSync(join(dataDir, 'package.json'), JSON.stringify({oclif: {plugins: [plugin], schema: 1}, private: true}))
    try {
      return await run()
    } finally {
      rmSync(join(dataDir, 'package.json'))
    }
  }

  it('answers a plain `config get` without loading oclif, and reaches oclif when a user plugin could answer', async () => {
    writeFileSync(settingsFile, '{"model": "parity-model"}\n')
    const list = join(box.home, 'modules.txt')
    const recorded = async (args: string[]) => {
      const env = {...box.env, NODE_OPTIONS: `--import=${RECORDER}`, RECORD_MODULES_TO: list}
      const result = await runCli(args, {cwd: box.home, env})
      const modules = readFileSync(list, 'utf8').split('\n')
      rmSync(list)
      return {...result, oclif: modules.filter((m) => /\/node_modules\/@oclif\//.test(m))}
    }

    for (const args of [
      ['config', 'get', 'model'],
      ['config', 'get', 'model', '--json'],
    ]) {
      const fast = await recorded(args)
      expect(fast.exitCode, fast.stderr).toBe(0)
      expect(fast.stdout).toContain('parity-model')
      expect(fast.oclif).toEqual([])
    }

    expect((await recorded(['config', 'get', 'nope'])).oclif).not.toEqual([])
    const viaPlugin = await withUserPlugin(() => recorded(['config', 'get', 'model']))
    expect(viaPlugin.stdout).toBe('parity-model')
    expect(viaPlugin.oclif).not.toEqual([])
  })
})
