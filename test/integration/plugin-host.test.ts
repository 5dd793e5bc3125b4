import {cpSync, existsSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Contribution, DoctorReport} from '@hanzo-dev/sdk'
import {Config} from '@oclif/core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {collectContributions, collectDoctorReports, type HostResults} from '../../src/adapters/plugin-host.js'
import {type CliResult, makeSandbox, REPO_ROOT, runCli, type Sandbox} from '../helpers/cli.js'

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'plugins')
const HELLO = join(REPO_ROOT, 'examples', 'plugin-hello')
const TIMEOUT_MS = 1500

/** The misbehaving fixtures, and what the warning naming each must say. */
const BAD: Record<string, RegExp> = {
  'hanzo-fixture-bad-shape': /not a valid reply/,
  'hanzo-fixture-hangs': /did not answer .* within 1500 ms/,
  'hanzo-fixture-hangs-on-import': /did not answer .* within 1500 ms/,
  'hanzo-fixture-throws': /exploded/,
  'hanzo-fixture-wrong-version': /API version 999/,
}

/**
 * Puts the fixtures where oclif looks for user plugins, the way `plugins install` and
 * `plugins link --no-install` leave them: `ok` installed (copied into node_modules, as npm
 * does for a package without dependencies), the others and the example linked.
 */
function installFixtures(box: Sandbox): string {
  const dataDir = join(box.env.XDG_DATA_HOME, 'hanzo-dev')
  mkdirSync(join(dataDir, 'node_modules'), {recursive: true})
  cpSync(join(FIXTURES, 'ok'), join(dataDir, 'node_modules', 'hanzo-fixture-ok'), {recursive: true})
  const linked = ['throws', 'hangs', 'hangs-on-import', 'wrong-version', 'bad-shape', 'shadow'].map((name) => ({
    name: `hanzo-fixture-${name}`,
    root: join(FIXTURES, name),
    type: 'link',
  }))
  const plugins = [
    {name: 'hanzo-fixture-ok', tag: 'latest', type: 'user'},
    ...linked,
    {name: 'hanzo-dev-plugin-hello', root: HELLO, type: 'link'},
  ]
  const pjson = {
    dependencies: {'hanzo-fixture-ok': '1.0.0'},
    name: 'hanzo-dev',
    oclif: {plugins, schema: 1},
    private: true,
  }
  writeFileSync(join(dataDir, 'package.json'), JSON.stringify(pjson, null, 2))
  return dataDir
}

function warningsByPlugin(warnings: {plugin: string; message: string}[]) {
  return Object.fromEntries(warnings.map((w) => [w.plugin, w.message]))
}

describe('hanzo-dev doctor with misbehaving user plugins (built CLI)', () => {
  let box: Sandbox
  let dataDir: string
  let run: CliResult

  beforeAll(async () => {
    box = makeSandbox()
    dataDir = installFixtures(box)
    run = await runCli(['doctor', '--json'], {
      cwd: box.home,
      env: {...box.env, HANZO_PLUGIN_TIMEOUT_MS: String(TIMEOUT_MS)},
    })
  })
  afterAll(() => box.cleanup())

  it('still answers, as JSON, with the core checks and the well-behaved plugins', () => {
    const report = JSON.parse(run.stdout)
    expect(run.exitCode).toBe(report.ok ? 0 : 1)
    expect(report.checks.some((c: {source: string}) => c.source === 'core')).toBe(true)
    expect(report.checks).toContainEqual(
      expect.objectContaining({id: 'fixture.ok', source: 'hanzo-fixture-ok', status: 'ok'}),
    )
    expect(report.checks).toContainEqual(
      expect.objectContaining({id: 'hello.ready', source: 'hanzo-dev-plugin-hello', status: 'ok'}),
    )
  })

  it('turns each bad plugin into a warning naming it', () => {
    const checks: {source: string; status: string; detail?: string}[] = JSON.parse(run.stdout).checks
    for (const [plugin, message] of Object.entries(BAD)) {
      const mine = checks.filter((c) => c.source === plugin)
      expect(mine, plugin).toEqual([expect.objectContaining({detail: expect.stringMatching(message), status: 'warn'})])
    }
  })

  it('aborts the signal it gave a plugin it stopped waiting for', () => {
    expect(existsSync(join(dataDir, 'hangs-released-doctor'))).toBe(true)
  })

  it('runs the core doctor command, not the one a user plugin defines', async () => {
    expect(run.stdout).not.toContain('SHADOWED')
    expect(run.exitCode).not.toBe(42)
    const help = await runCli(['doctor', '--help'], {cwd: box.home, env: box.env})
    expect(help.exitCode).toBe(0)
    expect(help.stdout).not.toContain('pretending to be the core doctor')
  })
})

describe('plugin host, in process (collectContributions / collectDoctorReports)', () => {
  let box: Sandbox
  let dataDir: string
  let contributions: HostResults<Contribution>
  let reports: HostResults<DoctorReport>
  let config: Config
  const saved = {...process.env}

  beforeAll(async () => {
    box = makeSandbox()
    dataDir = installFixtures(box)
    // As the CLI runs for users; the linked-ESM notice oclif prints then is noise here.
    Object.assign(process.env, box.env, {NODE_ENV: 'production', OCLIF_DISABLE_LINKED_ESM_WARNING: '1'})
    config = await Config.load(REPO_ROOT)
    expect(config.dataDir).toBe(dataDir)
    const host = {
      configDir: join(box.env.XDG_CONFIG_HOME, 'hanzo'),
      cwd: box.home,
      dataDir,
      env: {},
      projectRoot: box.home,
      settings: {},
    }
    ;[contributions, reports] = await Promise.all([
      collectContributions(config, host, TIMEOUT_MS),
      collectDoctorReports(config, host, TIMEOUT_MS),
    ])
  })
  afterAll(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key]
    Object.assign(process.env, saved)
    box.cleanup()
  })

  // Core plugins are checked only for their type: their own tests cover what they answer.
  it('tags every answer with the type of plugin it came from', () => {
    const expected: Record<string, string> = {
      'hanzo-dev-plugin-hello': 'link',
      'hanzo-fixture-ok': 'user',
      'hanzo-fixture-shadow': 'link',
    }
    for (const a of [...contributions.answers, ...reports.answers]) {
      expect(a.pluginType, a.plugin).toBe(a.plugin.startsWith('@hanzo-dev/plugin-') ? 'core' : expected[a.plugin])
    }

    expect(reports.answers.some((a) => a.pluginType === 'core')).toBe(true)
    expect(contributions.answers.map((a) => a.plugin)).toEqual(
      expect.arrayContaining(['hanzo-fixture-ok', 'hanzo-dev-plugin-hello']),
    )
  })

  it('hands back tools that run', async () => {
    const tools = contributions.answers.filter((a) => a.pluginType !== 'core').flatMap((a) => a.value.tools ?? [])
    // Non-core plugins answer in name order: hanzo-dev-plugin-hello before hanzo-fixture-ok.
    expect(tools.map((t) => [t.name, t.mutating])).toEqual([
      ['hello_greet', false],
      ['fixture_echo', false],
    ])
    const context = {cwd: box.home, sessionId: 'test', signal: new AbortController().signal}
    expect(await tools[0].execute({name: 'Ada'}, context)).toEqual({
      error: null,
      is_error: false,
      output: 'Hello, Ada!',
    })
  })

  it('hands back slash commands that run', async () => {
    const commands = contributions.answers
      .filter((a) => a.plugin === 'hanzo-fixture-ok')
      .flatMap((a) => a.value.slashCommands ?? [])
    expect(commands.map((c) => [c.name, c.argsHint])).toEqual([['fixture-say', 'TEXT']])
    expect(
      await commands[0].run({args: 'hi', argv: ['hi'], cwd: box.home, signal: new AbortController().signal}),
    ).toEqual({message: 'hi'})
  })

  it('turns each bad plugin into one warning naming it, and no good one into a warning', () => {
    for (const results of [contributions, reports]) {
      const warned = warningsByPlugin(results.warnings.filter((w) => !w.plugin.startsWith('@hanzo-dev/plugin-')))
      expect(Object.keys(warned).sort()).toEqual(Object.keys(BAD).sort())
      for (const [plugin, message] of Object.entries(BAD)) expect(warned[plugin], plugin).toMatch(message)
    }
  })

  it('resolves a command id a user plugin also defines to the core command', () => {
    expect(config.plugins.get('hanzo-fixture-shadow')?.commands.map((c) => c.id)).toEqual(['doctor'])
    expect(config.findCommand('doctor')).toMatchObject({pluginName: 'hanzo-dev', pluginType: 'core'})
  })

  it('aborts host.signal once it stops waiting', () => {
    expect(existsSync(join(dataDir, 'hangs-released-contribute'))).toBe(true)
  })
})
