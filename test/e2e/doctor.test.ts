import {existsSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js'

const PLUGINS = ['git', 'lsp', 'hooks', 'sandbox', 'agents', 'mcp'].map((p) => `@hanzo-dev/plugin-${p}`)

interface Check {
  source: string
  id: string
  status: string
  detail?: string
}

describe('hanzo-dev doctor', () => {
  let box: Sandbox
  beforeEach(() => {
    box = makeSandbox()
  })
  afterEach(() => box.cleanup())

  it('passes on a machine with no settings, with core checks and one group per core plugin, in order', async () => {
    const {exitCode, stdout} = await runCli(['doctor', '--json'], {cwd: box.home, env: box.env})
    const report = JSON.parse(stdout) as {ok: boolean; checks: Check[]}
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([])
    expect(exitCode).toBe(0)
    const sources = [...new Set(report.checks.map((c) => c.source))]
    expect(sources).toEqual(['core', ...PLUGINS])
  })

  it('fails with exit 1 on a malformed settings file, naming it, and still asks every plugin', async () => {
    mkdirSync(join(box.home, '.hanzo'))
    writeFileSync(join(box.home, '.hanzo', 'settings.json'), '{"model": "x",\n}\n')
    const {exitCode, stdout} = await runCli(['doctor', '--json'], {cwd: box.home, env: box.env})
    const report = JSON.parse(stdout) as {ok: boolean; checks: Check[]}
    const config = report.checks.find((c) => c.id === 'core.config')
    expect(config?.status).toBe('fail')
    expect(config?.detail).toContain(join(box.home, '.hanzo', 'settings.json'))
    expect(config?.detail).toMatch(/line 2, column 1/)
    expect(report.ok).toBe(false)
    expect(exitCode).toBe(1)
    for (const p of PLUGINS) expect(report.checks.some((c) => c.source === p)).toBe(true)
  })

  it('reports settings warnings as warnings, not failures', async () => {
    mkdirSync(join(box.home, '.hanzo'))
    writeFileSync(join(box.home, '.hanzo', 'settings.json'), '{"modle": "x"}\n')
    const {exitCode, stdout, stderr} = await runCli(['doctor', '--json'], {cwd: box.home, env: box.env})
    const warning = (JSON.parse(stdout) as {checks: Check[]}).checks.find((c) => c.id === 'core.config.warning')
    expect(warning).toMatchObject({source: 'core', status: 'warn'})
    expect(warning?.detail).toContain('modle')
    expect(stderr).not.toContain('modle')
    expect(exitCode).toBe(0)
  })

  it('prints a readable report without colour when not on a terminal, and creates nothing', async () => {
    const {exitCode, stdout, stderr} = await runCli(['doctor'], {cwd: box.home, env: box.env})
    expect(exitCode).toBe(0)
    expect(stdout).toMatch(/^core\n {2}✓ Node\.js version is supported/)
    expect(stdout).toMatch(/\n\d+ ok, \d+ warnings?, 0 failed$/)
    expect(stdout).not.toContain('\u001B[')
    expect(stderr).not.toMatch(/Error|at .*\.js:\d+/)
    expect(existsSync(join(box.env.XDG_CONFIG_HOME, 'hanzo'))).toBe(false)
    expect(existsSync(join(box.env.XDG_DATA_HOME, 'hanzo-dev'))).toBe(false)
  })

  it('rejects an unknown flag with exit 2', async () => {
    const {exitCode, stderr} = await runCli(['doctor', '--nope'], {cwd: box.home, env: box.env})
    expect(exitCode).toBe(2)
    expect(stderr).toMatch(/Nonexistent flag: --nope/)
  })
})
