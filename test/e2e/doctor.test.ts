import {chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js'

const PLUGINS = ['git', 'hooks', 'sandbox', 'lsp', 'agents', 'mcp'].map((p) => `@hanzo-dev/plugin-${p}`)

interface Check {
  source: string
  id: string
  status: string
  detail?: string
  hint?: string
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

  it.each([
    [
      'settings.json links to itself',
      (dir: string) => symlinkSync('settings.json', join(dir, '.hanzo', 'settings.json')),
      '.hanzo/settings.json',
    ],
    ['.git links to itself', (dir: string) => symlinkSync('.git', join(dir, '.git')), '.git'],
  ])(
    'reports a symbolic link loop (%s) as the failed settings check, and still prints the rest',
    async (_name, makeLoop, culprit) => {
      const repo = join(box.home, 'repo')
      mkdirSync(join(repo, '.hanzo'), {recursive: true})
      makeLoop(repo)
      const {exitCode, stderr, stdout} = await runCli(['doctor', '--json'], {cwd: repo, env: box.env})
      const report = JSON.parse(stdout) as {checks: Check[]}
      const config = report.checks.find((c) => c.id === 'core.config')
      expect(config?.status).toBe('fail')
      expect(config?.detail).toBe(
        `Cannot use ${join(repo, culprit)} (ELOOP: a symbolic link that leads back to itself)`,
      )
      expect(report.checks.find((c) => c.id === 'core.node')?.status).toBe('ok')
      for (const p of PLUGINS) expect(report.checks.some((c) => c.source === p)).toBe(true)
      expect(exitCode).toBe(1)
      expect(stderr).not.toMatch(/Error: ELOOP|Code: ELOOP|\n\s+at /)

      const list = await runCli(['config', 'list'], {cwd: repo, env: box.env})
      expect(list.exitCode).toBe(1)
      expect(list.stderr).toContain(`Cannot use ${join(repo, culprit)} (ELOOP`)
      expect(list.stderr).toContain(`fix or remove`)
      expect(list.stderr).not.toMatch(/Error: ELOOP|Code: ELOOP|\n\s+at /)
    },
  )

  it.skipIf(process.platform === 'win32')(
    'warns when the user settings file holds a credential and others can read it, even with HANZO_API_KEY set',
    async () => {
      const userFile = join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json')
      mkdirSync(join(userFile, '..'), {recursive: true})
      writeFileSync(userFile, '{"api_key": "sk-file-secret"}\n', {mode: 0o644})
      chmodSync(userFile, 0o644)
      const doctor = () =>
        runCli(['doctor', '--json'], {cwd: box.home, env: {...box.env, HANZO_API_KEY: 'sk-env-secret'}})
      const {exitCode, stdout} = await doctor()
      const exposed = (JSON.parse(stdout) as {checks: Check[]}).checks.find((c) => c.id === 'core.config.private')
      expect(exposed).toMatchObject({
        detail: `${userFile} holds credentials and is open to other users (mode 0644)`,
        source: 'core',
        status: 'warn',
      })
      expect(stdout).not.toContain('secret')
      expect(exitCode).toBe(0)

      chmodSync(userFile, 0o600)
      expect(
        (JSON.parse((await doctor()).stdout) as {checks: Check[]}).checks.some((c) => c.id === 'core.config.private'),
      ).toBe(false)
    },
  )

  it('reports settings warnings as warnings, not failures', async () => {
    mkdirSync(join(box.home, '.hanzo'))
    writeFileSync(join(box.home, '.hanzo', 'settings.json'), '{"modle": "x", "max_tokns": 1}\n')
    const {exitCode, stdout, stderr} = await runCli(['doctor', '--json'], {cwd: box.home, env: box.env})
    const {checks} = JSON.parse(stdout) as {checks: Check[]}
    const warnings = checks.filter((c) => c.id.startsWith('core.config.warning'))
    expect(warnings.map((w) => [w.id, w.source, w.status])).toEqual([
      ['core.config.warning.1', 'core', 'warn'],
      ['core.config.warning.2', 'core', 'warn'],
    ])
    expect(new Set(checks.map((c) => c.id)).size).toBe(checks.length)
    expect(warnings[0].detail).toContain('modle')
    expect(warnings[1].detail).toContain('max_tokns')
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

  describe('the model endpoint, asked for its models as a run asks it', () => {
    let model: FakeModel | undefined
    afterEach(async () => {
      await model?.close()
      model = undefined
    })

    const userFile = () => join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json')
    /** Settings of a custom provider at `url`, with its own key and a model; doctor's model checks and exit code. */
    const doctor = async (url: string, extra: {flags?: string[]; env?: Record<string, string>} = {}) => {
      mkdirSync(join(userFile(), '..'), {recursive: true})
      const settings = {
        model: 'qwen3:8b',
        provider: 'local',
        providers: {local: {api_key: 'sk-local-secret', base_url: `${url}?token=url-secret`}},
      }
      writeFileSync(userFile(), JSON.stringify(settings), {mode: 0o600})
      const {exitCode, stdout} = await runCli(['doctor', '--json', ...(extra.flags ?? [])], {
        cwd: box.home,
        env: {...box.env, ...extra.env},
      })
      expect(stdout).not.toMatch(/secret/)
      const {checks} = JSON.parse(stdout) as {checks: Check[]}
      return {checks: checks.filter((c) => c.id.startsWith('core.model')), exitCode}
    }

    const serve = async (models: Script['models']) => {
      model = await startFakeModel({models, turns: []})
      return model.url
    }

    it('passes when the endpoint lists the model, having sent the key a run sends', async () => {
      const url = await serve(['llama3', 'qwen3:8b'])
      const {checks, exitCode} = await doctor(url)
      const port = new URL(url).port
      expect(checks).toEqual([
        expect.objectContaining({detail: 'local (providers.local)', id: 'core.model.provider', status: 'ok'}),
        expect.objectContaining({
          detail: `http://127.0.0.1:${port}/[redacted]?[redacted] (local) lists 2 models`,
          id: 'core.model.endpoint',
          status: 'ok',
        }),
        expect.objectContaining({detail: 'qwen3:8b', id: 'core.model.listed', status: 'ok'}),
      ])
      expect(exitCode).toBe(0)
      expect(model!.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
        ['GET', '/v1/models', 'Bearer [redacted]'],
      ])
    })

    it.each([
      [401, 'Incorrect API key provided.'],
      [403, 'This key may not use this project.'],
    ])('fails on HTTP %i with the server message, naming the key to check', async (status, message) => {
      const {checks, exitCode} = await doctor(await serve({body: {message}, status}))
      expect(checks[1]).toMatchObject({
        detail: expect.stringContaining(`: HTTP ${status}: ${message}`),
        hint: expect.stringContaining('providers.local.api_key'),
        id: 'core.model.endpoint',
        status: 'fail',
      })
      expect(checks).toHaveLength(2)
      expect(exitCode).toBe(1)
    })

    it('fails on HTTP 404, naming the base URL setting to check', async () => {
      const {checks, exitCode} = await doctor(await serve({status: 404}))
      expect(checks[1]).toMatchObject({
        detail: expect.stringContaining('HTTP 404: fake-model: scripted HTTP 404'),
        hint: `check providers.local.base_url (file:${userFile()}): the server has no model list there (does the URL lack its /v1?)`,
        status: 'fail',
      })
      expect(exitCode).toBe(1)
    })

    it('fails a model the endpoint does not list, and says what it does list', async () => {
      const {checks, exitCode} = await doctor(await serve(['llama3', 'mistral']))
      expect(checks[2]).toMatchObject({
        detail: expect.stringMatching(
          /^qwen3:8b \(file:.*settings\.json\) is not a model .* lists: it lists llama3, mistral$/,
        ),
        id: 'core.model.listed',
        status: 'fail',
      })
      expect(exitCode).toBe(1)
    })

    it('fails a Claude model on provider openai, with HANZO_BASE_URL winning over the file', async () => {
      const url = await serve(['gpt-5.5', 'gpt-5.4-mini'])
      mkdirSync(join(userFile(), '..'), {recursive: true})
      writeFileSync(userFile(), JSON.stringify({model: 'claude-sonnet-4-20250514', provider: 'openai'}), {mode: 0o600})
      const env = {...box.env, HANZO_BASE_URL: url, OPENAI_API_KEY: 'sk-openai-secret'}
      const {exitCode, stdout} = await runCli(['doctor', '--json'], {cwd: box.home, env})
      const checks = (JSON.parse(stdout) as {checks: Check[]}).checks.filter((c) => c.id.startsWith('core.model'))
      expect(checks.map((c) => [c.id, c.status])).toEqual([
        ['core.model.provider', 'ok'],
        ['core.model.endpoint', 'ok'],
        ['core.model.listed', 'fail'],
      ])
      expect(checks[2].detail).toContain('claude-sonnet-4-20250514')
      expect(exitCode).toBe(1)
    })

    it('warns, not passes, when the endpoint answers without a model list', async () => {
      const server = createServer((_request, response) => {
        response.writeHead(200, {'content-type': 'text/html'}).end('<!doctype html><p>It works!</p>')
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      try {
        const {checks, exitCode} = await doctor(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`)
        expect(checks.slice(1)).toEqual([
          expect.objectContaining({detail: expect.stringContaining('an HTML page'), status: 'warn'}),
          expect.objectContaining({detail: 'qwen3:8b: not checked', id: 'core.model.listed', status: 'skip'}),
        ])
        expect(exitCode).toBe(0)
      } finally {
        server.closeAllConnections()
        await new Promise((resolve) => server.close(resolve))
      }
    })

    it('fails a closed port, naming the setting; --offline contacts nothing', async () => {
      const url = await serve([])
      await model!.close()
      model = undefined
      const down = await doctor(url)
      expect(down.checks[1]).toMatchObject({
        detail: expect.stringContaining('connection refused'),
        id: 'core.model.endpoint',
        status: 'fail',
      })
      expect(down.checks[1].hint).toBe(
        `check providers.local.base_url (file:${userFile()}), or run hanzo-dev doctor --offline to skip this check`,
      )
      expect(down.exitCode).toBe(1)

      const offline = await doctor(url, {flags: ['--offline']})
      expect(offline.checks[1]).toMatchObject({id: 'core.model.endpoint', status: 'skip'})
      expect(offline.exitCode).toBe(0)
    })
  })

  it('fails a provider that does not exist, naming where it was set and the ones that do', async () => {
    const {exitCode, stdout} = await runCli(['doctor', '--json', '--offline'], {
      cwd: box.home,
      env: {...box.env, HANZO_PROVIDER: 'nosuch'},
    })
    const provider = (JSON.parse(stdout) as {checks: Check[]}).checks.find((c) => c.id === 'core.model.provider')
    expect(provider).toMatchObject({
      detail: 'Unknown provider "nosuch" (env:HANZO_PROVIDER)',
      source: 'core',
      status: 'fail',
    })
    expect(provider?.hint).toContain('use one of anthropic, hanzo, lmstudio, ollama, openai, vllm')
    expect(exitCode).toBe(1)
  })

  it('rejects an unknown flag with exit 2', async () => {
    const {exitCode, stderr} = await runCli(['doctor', '--nope'], {cwd: box.home, env: box.env})
    expect(exitCode).toBe(2)
    expect(stderr).toMatch(/Nonexistent flag: --nope/)
  })
})
