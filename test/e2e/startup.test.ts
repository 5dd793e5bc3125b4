import {mkdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {execa} from 'execa'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, REPO_ROOT, runCli, type Sandbox} from '../helpers/cli.js'

// What start-up may load is checked on the modules a real run loads, not on timings: the
// preload lists every module (ESM and CommonJS) the process loaded.
const RECORDER = pathToFileURL(join(REPO_ROOT, 'bench', 'record-modules.js')).href
const READS = pathToFileURL(join(REPO_ROOT, 'test', 'support', 'record-reads.js')).href
const REPL = join(REPO_ROOT, 'bin', 'hanzo-repl.js')
const OCLIF = /\/node_modules\/@oclif\//
const MODEL_OR_MCP_SDK = /\/node_modules\/(openai|@anthropic-ai\/sdk|@modelcontextprotocol\/sdk)\//

describe('start-up', () => {
  let box: Sandbox
  beforeEach(() => {
    box = makeSandbox()
  })
  afterEach(() => box.cleanup())

  /** Runs the CLI and returns its result with the URLs of every module it loaded. */
  async function runRecorded(args: string[]) {
    const list = join(box.home, 'modules.txt')
    const result = await runCli(args, {
      cwd: box.home,
      env: {...box.env, NODE_OPTIONS: `--import=${RECORDER}`, RECORD_MODULES_TO: list},
    })
    return {...result, modules: [...new Set(readFileSync(list, 'utf8').split('\n').filter(Boolean))]}
  }

  it('answers --version without loading oclif, with the text oclif would print', async () => {
    const fast = await runRecorded(['--version'])
    expect(fast.exitCode).toBe(0)
    expect(fast.modules.some((m) => m.endsWith('/bin/run.js'))).toBe(true)
    expect(fast.modules.filter((m) => OCLIF.test(m))).toEqual([])

    // Anything after --version goes through oclif, which prints its own version line.
    const viaOclif = await runCli(['--version', '--'], {cwd: box.home, env: box.env})
    expect(viaOclif.exitCode).toBe(0)
    expect(fast.stdout).toBe(viaOclif.stdout)
  })

  it('loads no model or MCP SDK for --help', async () => {
    const help = await runRecorded(['--help'])
    expect(help.exitCode).toBe(0)
    // The recorder sees what oclif loads through require(), or this test would prove nothing.
    expect(help.modules.some((m) => m.endsWith('/@oclif/core/lib/config/plugin-loader.js'))).toBe(true)
    expect(help.modules.filter((m) => MODEL_OR_MCP_SDK.test(m))).toEqual([])
  })

  it('reads settings without compiling a schema: only the validator generated at build time loads', async () => {
    mkdirSync(join(box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'), '{"model": "m"}\n')
    const get = await runRecorded(['config', 'get', 'model'])
    expect(get.stdout).toBe('m')
    expect(get.modules.some((m) => m.endsWith('/dist/core/config/settings-validator.js'))).toBe(true)
    // ajv's small runtime helpers may load; its compiler (and so schema compilation) may not.
    expect(get.modules.filter((m) => /\/node_modules\/ajv\/dist\/(ajv|core|compile)\b/.test(m))).toEqual([])
  })

  it('names the platform without importing wsl-utils where Linux shows no sign of WSL', async () => {
    // An unknown key: oclif runs the command (a plain `config get` is answered without it).
    const get = await runRecorded(['config', 'get', 'nope'])
    expect(get.modules.some((m) => m.endsWith('/@oclif/core/lib/util/os.js'))).toBe(true)
    // entry-parity.test.ts checks that the user agent it gives is oclif's own.
    if (!/microsoft/i.test(readFileSync('/proc/version', 'utf8')))
      expect(get.modules.filter((m) => /\/node_modules\/wsl-utils\//.test(m))).toEqual([])
  })

  it('reads no trust store where no project setting needs trust', async () => {
    const get = await runRecorded(['config', 'get', 'model'])
    expect(get.exitCode, get.stderr).toBe(0)
    expect(get.modules.some((m) => m.endsWith('/dist/core/config/load.js'))).toBe(true)
    expect(get.modules.filter((m) => m.endsWith('/dist/adapters/trust-store.js'))).toEqual([])
  })

  it('loads no model or MCP SDK for doctor, although every plugin answers it', async () => {
    const doctor = await runRecorded(['doctor', '--json'])
    expect(JSON.parse(doctor.stdout).checks.length).toBeGreaterThan(0)
    for (const plugin of ['git', 'lsp', 'hooks', 'sandbox', 'agents', 'mcp']) {
      expect(
        doctor.modules.some((m) => m.includes(`/plugins/${plugin}/dist/`)),
        plugin,
      ).toBe(true)
    }

    expect(doctor.modules.filter((m) => MODEL_OR_MCP_SDK.test(m))).toEqual([])
  })
})

describe('core plugins prebuilt at build time (dist/core-plugins.json)', () => {
  let box: Sandbox
  beforeEach(() => {
    box = makeSandbox()
  })
  afterEach(() => box.cleanup())

  /** Runs the CLI and returns its result with every file oclif read (see test/support/record-reads.js). */
  async function runReading(args: string[], env: Record<string, string> = {}) {
    const list = join(box.home, 'reads.txt')
    writeFileSync(list, '')
    const result = await runCli(args, {
      cwd: box.home,
      env: {...box.env, ...env, NODE_OPTIONS: `--import=${READS}`, RECORD_READS_TO: list},
    })
    return {
      ...result,
      manifests: readFileSync(list, 'utf8')
        .split('\n')
        .filter((f) => f.endsWith('oclif.manifest.json')),
    }
  }

  it('reads no plugin manifest to run a command', async () => {
    const get = await runReading(['config', 'get', 'model'])
    expect(get.exitCode, get.stderr).toBe(0)
    expect(get.manifests).toEqual([])
  })

  it('lets oclif discover every plugin when the user linked or installed one, which then runs', async () => {
    const dataDir = join(box.env.XDG_DATA_HOME, 'hanzo-dev')
    mkdirSync(dataDir, {recursive: true})
    const hello = join(REPO_ROOT, 'examples', 'plugin-hello')
    writeFileSync(
      join(dataDir, 'package.json'),
      JSON.stringify({oclif: {plugins: [{name: 'hanzo-dev-plugin-hello', root: hello, type: 'link'}]}}),
    )
    const linked = await runReading(['hello', 'Ada'])
    expect(linked.stdout).toBe('Hello, Ada!')
    // The recorder sees oclif's reads, or the test above would prove nothing.
    expect(linked.manifests).toContain(join(REPO_ROOT, 'oclif.manifest.json'))
  })

  // What oclif's own discovery and the prebuilt plugins give, side by side, in a child process
  // as the CLI runs (production: vitest's NODE_ENV=test would make oclif look for TS sources).
  const COMPARE = `
    import {Config} from '@oclif/core/config'
    const {loadCliConfig} = await import(process.argv[1] + '/dist/cli/core-plugins.js')
    // Sorted: oclif loads plugins concurrently, so its own order changes from run to run.
    const byName = (a, b) => (a.id ?? a.name) < (b.id ?? b.name) ? -1 : 1
    const describe = (config) => ({
      commands: config.commands.map((c) => ({aliases: c.aliases, flags: Object.keys(c.flags), id: c.id, plugin: c.pluginName, type: c.pluginType})).sort(byName),
      plugins: [...config.plugins.values()].map((p) => ({hooks: p.hooks, name: p.name, root: p.root, topics: p.topics, type: p.type, version: p.version})).sort(byName),
      topics: config.topics.map((t) => t.name).sort(),
    })
    const fast = await loadCliConfig(process.argv[1])
    const discovered = await Config.load(process.argv[1])
    process.stdout.write(JSON.stringify({discovered: describe(discovered), fast: describe(fast), prebuilt: [...fast.plugins.values()].every((p) => p.constructor === Object)}))
  `
  const compare = async (root: string) => {
    const {stdout} = await execa(process.execPath, ['--input-type=module', '-e', COMPARE, root], {
      cwd: REPO_ROOT,
      env: {...box.env, NODE_ENV: 'production'},
    })
    return JSON.parse(stdout)
  }

  it('gives oclif the plugins, commands, hooks and topics its own discovery finds', async () => {
    const {discovered, fast, prebuilt} = await compare(REPO_ROOT)
    expect(prebuilt).toBe(true)
    expect(fast).toEqual(discovered)
    expect(discovered.plugins.length).toBeGreaterThan(6)
  })

  it('is not used when a core plugin installed is not the one built', async () => {
    // A copy of the package whose prebuilt file names another version of plugin-help.
    const root = join(box.home, 'cli')
    mkdirSync(join(root, 'dist', 'cli'), {recursive: true})
    for (const entry of ['package.json', 'oclif.manifest.json', 'node_modules'])
      symlinkSync(join(REPO_ROOT, entry), join(root, entry))
    for (const entry of ['commands', 'core', 'adapters', 'hooks'])
      symlinkSync(join(REPO_ROOT, 'dist', entry), join(root, 'dist', entry))
    symlinkSync(join(REPO_ROOT, 'dist', 'cli', 'core-plugins.js'), join(root, 'dist', 'cli', 'core-plugins.js'))
    const prebuilt = JSON.parse(readFileSync(join(REPO_ROOT, 'dist', 'core-plugins.json'), 'utf8'))
    for (const p of prebuilt.plugins) if (p.name === '@oclif/plugin-help') p.version = '0.0.1'
    writeFileSync(join(root, 'dist', 'core-plugins.json'), JSON.stringify(prebuilt))

    const {discovered, fast, prebuilt: used} = await compare(root)
    expect(used).toBe(false)
    expect(fast).toEqual(discovered)
  })
})

describe('hanzo-repl (HIP-301 §16)', () => {
  let box: Sandbox
  beforeEach(() => {
    box = makeSandbox()
  })
  afterEach(() => box.cleanup())

  const deprecation = (line: string) => /deprecated/i.test(line) && line.includes('hanzo-dev')

  it('prints one deprecation line on stderr, then answers --version as hanzo-dev', async () => {
    const repl = await runCli(['--version'], {bin: REPL, cwd: box.home, env: box.env})
    const dev = await runCli(['--version'], {cwd: box.home, env: box.env})
    expect(repl.exitCode).toBe(0)
    expect(repl.stdout).toBe(dev.stdout)
    const lines = repl.stderr.split('\n').filter(Boolean)
    expect(lines).toHaveLength(1)
    expect(deprecation(lines[0])).toBe(true)
  })

  it('runs doctor as hanzo-dev does, with the deprecation line first and once', async () => {
    const repl = await runCli(['doctor', '--json'], {bin: REPL, cwd: box.home, env: box.env})
    const dev = await runCli(['doctor', '--json'], {cwd: box.home, env: box.env})
    expect(repl.exitCode).toBe(dev.exitCode)
    const ids = (stdout: string) =>
      JSON.parse(stdout).checks.map((c: {id: string; source: string}) => `${c.source}:${c.id}`)
    expect(ids(repl.stdout)).toEqual(ids(dev.stdout))
    const lines = repl.stderr.split('\n').filter(Boolean)
    expect(deprecation(lines[0])).toBe(true)
    expect(lines.filter(deprecation)).toHaveLength(1)
  })
})
