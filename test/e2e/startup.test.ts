import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, REPO_ROOT, runCli, type Sandbox} from '../helpers/cli.js'

// What start-up may load is checked on the modules a real run loads, not on timings: the
// preload lists every module (ESM and CommonJS) the process loaded.
const RECORDER = pathToFileURL(join(REPO_ROOT, 'bench', 'record-modules.js')).href
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

  it('loads no model or MCP SDK for doctor, although every plugin answers it', async () => {
    const doctor = await runRecorded(['doctor', '--json'])
    expect(JSON.parse(doctor.stdout).checks.length).toBeGreaterThan(0)
    for (const plugin of ['git', 'lsp', 'hooks', 'sandbox', 'agents', 'mcp']) {
      expect(doctor.modules.some((m) => m.includes(`/plugins/${plugin}/dist/`)), plugin).toBe(true)
    }

    expect(doctor.modules.filter((m) => MODEL_OR_MCP_SDK.test(m))).toEqual([])
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
    const ids = (stdout: string) => JSON.parse(stdout).checks.map((c: {id: string; source: string}) => `${c.source}:${c.id}`)
    expect(ids(repl.stdout)).toEqual(ids(dev.stdout))
    const lines = repl.stderr.split('\n').filter(Boolean)
    expect(deprecation(lines[0])).toBe(true)
    expect(lines.filter(deprecation)).toHaveLength(1)
  })
})
