import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, type Sandbox} from '../../../test/helpers/cli.js'
import {findCredentialSources} from '../src/credentials.js'
import {agentsChecks} from '../src/doctor-checks.js'

let sandbox: Sandbox
let configDir: string

beforeEach(() => {
  sandbox = makeSandbox('hanzo-agents-')
  configDir = join(sandbox.env.XDG_CONFIG_HOME, 'hanzo')
  mkdirSync(configDir, {recursive: true})
})
afterEach(() => sandbox.cleanup())

const SECRET = 'sk-test-0123456789abcdef'

describe('findCredentialSources', () => {
  it('names every place a credential is set, in order, never the value', async () => {
    writeFileSync(join(configDir, 'credentials.json'), JSON.stringify({hanzo: {access_token: SECRET}}), {mode: 0o600})
    const sources = await findCredentialSources({
      configDir,
      env: {ANTHROPIC_API_KEY: SECRET, HANZO_API_KEY: '', OPENAI_API_KEY: undefined},
      settings: {
        api_key: '[redacted]',
        providers: {empty: {}, openai: {api_key: '[redacted]', base_url: 'https://api.openai.com/v1'}},
      },
    })
    expect(sources).toEqual([
      {kind: 'settings', name: 'api_key'},
      {kind: 'settings', name: 'providers.openai.api_key'},
      {kind: 'environment', name: 'ANTHROPIC_API_KEY'},
      {kind: 'file', mode: 0o600, name: join(configDir, 'credentials.json')},
    ])
    expect(JSON.stringify(sources)).not.toContain(SECRET)
  })

  it('tolerates settings of the wrong shape', async () => {
    expect(await findCredentialSources({configDir, env: {}, settings: {api_key: 42, providers: ['openai']}})).toEqual(
      [],
    )
  })
})

describe('agentsChecks', () => {
  it('passes with a model and a key from the environment', async () => {
    const checks = await agentsChecks({
      configDir,
      env: {HANZO_API_KEY: SECRET},
      settings: {model: 'zen-coder', provider: 'hanzo'},
    })
    expect(checks).toEqual([
      expect.objectContaining({detail: 'zen-coder (provider hanzo)', id: 'agents.model', status: 'ok'}),
      expect.objectContaining({detail: 'HANZO_API_KEY (environment)', id: 'agents.credentials', status: 'ok'}),
    ])
    expect(JSON.stringify(checks)).not.toContain(SECRET)
  })

  it('warns with the login hint when nothing is configured', async () => {
    const checks = await agentsChecks({configDir, env: {}, settings: {}})
    expect(checks.map((c) => [c.id, c.status])).toEqual([
      ['agents.model', 'warn'],
      ['agents.credentials', 'warn'],
    ])
    expect(checks[1].hint).toMatch(/hanzo-dev auth login.*HANZO_API_KEY/)
  })

  it.skipIf(process.platform === 'win32')('warns when the credentials file is open to other users', async () => {
    writeFileSync(join(configDir, 'credentials.json'), '{}', {mode: 0o644})
    const checks = await agentsChecks({configDir, env: {}, settings: {model: 'm'}})
    expect(checks.find((c) => c.id === 'agents.credentials')?.status).toBe('ok')
    expect(checks.find((c) => c.id === 'agents.credentials.file')).toMatchObject({
      detail: expect.stringContaining('mode 0644'),
      status: 'warn',
    })
  })
})
