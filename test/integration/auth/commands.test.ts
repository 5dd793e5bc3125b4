import {statSync} from 'node:fs'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {startFakeModel} from '../../../src/testing/fake-model/server.js'
import {makeSandbox, runCli, type Sandbox, unwrapped} from '../../helpers/cli.js'
import {credentialsFile, storedCredentials, writeUserSettings} from '../../support/oauth/cli-login.js'

describe('auth commands without a server', () => {
  let box: Sandbox
  beforeEach(() => {
    box = makeSandbox('hanzo-auth-cmd-')
  })
  afterEach(() => box.cleanup())

  it('asks a script to name the provider, listing them (exit 2)', async () => {
    const out = await runCli(['auth', 'login'], {env: box.env})
    expect(out.exitCode).toBe(2)
    expect(unwrapped(out.stderr)).toContain('Name the provider to log in to')
    expect(unwrapped(out.stderr)).toContain('pass --provider with one of: hanzo, anthropic, openai')
  })

  it('stores an API key from stdin (0600), reports it without the key, and run uses it', async () => {
    const login = await runCli(['auth', 'login', '--provider', 'openai', '--with-api-key', '--json'], {
      env: box.env,
      input: 'sk-stored-key-123\n',
    })
    expect(login.exitCode).toBe(0)
    expect(JSON.parse(login.stdout)).toEqual({
      backend: 'file',
      provider: 'openai',
      storedIn: credentialsFile(box),
      type: 'api_key',
    })
    expect(storedCredentials(box)).toEqual({openai: {key: 'sk-stored-key-123', type: 'api_key'}})
    expect(statSync(credentialsFile(box)).mode & 0o777).toBe(0o600)

    const status = await runCli(['auth', 'status'], {env: box.env})
    expect(status).toMatchObject({
      exitCode: 0,
      stdout: expect.stringMatching(/^openai: API key — .*credentials\.json$/),
    })
    expect(status.stdout + status.stderr).not.toContain('sk-stored-key-123')
    expect(await runCli(['auth', 'token', '--provider', 'openai'], {env: box.env})).toMatchObject({
      exitCode: 0,
      stdout: 'sk-stored-key-123',
    })
  })

  it('never echoes a key typed as an argument by mistake', async () => {
    const out = await runCli(['auth', 'login', '--with-api-key', 'sk-typed-by-mistake'], {env: box.env})
    expect(out.exitCode).toBe(2)
    expect(unwrapped(out.stderr)).toContain('auth login takes no arguments; an API key goes on stdin')
    expect(out.stdout + out.stderr).not.toContain('sk-typed-by-mistake')
  })

  it('refuses an empty key or one with spaces', async () => {
    for (const input of ['', '  \n', 'two keys\n']) {
      const out = await runCli(['auth', 'login', '--provider', 'hanzo', '--with-api-key'], {env: box.env, input})
      expect(out.exitCode).toBe(2)
      expect(out.stderr).toMatch(/No API key on stdin|holds whitespace/)
    }
  })

  it('auto-detects the provider of a run: the first of hanzo, anthropic, openai with a key or a login', async () => {
    const model = await startFakeModel({turns: [{text: 'via openai'}]})
    try {
      await runCli(['auth', 'login', '--provider', 'openai', '--with-api-key'], {env: box.env, input: 'sk-openai'})
      // No Hanzo or Anthropic credential: the stored OpenAI key is used, at OpenAI's URL, which the settings point at the fake.
      writeUserSettings(box, {providers: {openai: {api: 'chat_completions', base_url: model.url}}})
      const out = await runCli(['run', 'hi'], {env: box.env})
      expect(out).toMatchObject({exitCode: 0, stdout: 'via openai'})
    } finally {
      await model.close()
    }
  })

  it('says when not logged in, and exits 1', async () => {
    expect(await runCli(['auth', 'status', '--json'], {env: box.env})).toMatchObject({exitCode: 1})
    const token = await runCli(['auth', 'token'], {env: box.env})
    expect(token.exitCode).toBe(1)
    expect(unwrapped(token.stderr)).toContain('Not logged in')
    const logout = await runCli(['auth', 'logout', '--provider', 'hanzo'], {env: box.env})
    expect(logout.exitCode).toBe(1)
    expect(unwrapped(logout.stderr)).toContain('Not logged in to hanzo')
    expect(await runCli(['auth', 'logout'], {env: box.env})).toMatchObject({
      exitCode: 0,
      stdout: 'Not logged in to any provider.',
    })
  })

  it('shows API keys from the environment by their variable, never the key', async () => {
    const env = {...box.env, ANTHROPIC_API_KEY: 'sk-ant-secret', HANZO_API_KEY: 'hk-secret'}
    const out = await runCli(['auth', 'status', '--json'], {env})
    expect(out.exitCode).toBe(0)
    expect(JSON.parse(out.stdout)).toEqual({
      apiKeys: [
        {provider: 'hanzo', source: 'HANZO_API_KEY'},
        {provider: 'anthropic', source: 'ANTHROPIC_API_KEY'},
      ],
      backend: 'file',
      credentials: [],
    })
    const text = await runCli(['auth', 'status'], {env})
    expect(text.stdout).toBe('hanzo: API key from HANZO_API_KEY\nanthropic: API key from ANTHROPIC_API_KEY')
    expect(text.stdout + text.stderr).not.toContain('secret')
  })

  it('names the settings file a key comes from', async () => {
    const file = writeUserSettings(box, {api_key: 'hk-file-secret'})
    const out = await runCli(['auth', 'status', '--json'], {env: box.env})
    expect(JSON.parse(out.stdout).apiKeys).toEqual([{file, provider: 'hanzo', source: 'api_key'}])
    expect((await runCli(['auth', 'status'], {env: box.env})).stdout).toBe(`hanzo: API key from api_key in ${file}`)
  })

  it('auth token with only a key in the environment or settings says where the key is, not "Not logged in", and prints no key', async () => {
    const fromEnv = await runCli(['auth', 'token'], {env: {...box.env, HANZO_API_KEY: 'hk-env-secret'}})
    expect(fromEnv.exitCode).toBe(1)
    expect(unwrapped(fromEnv.stderr)).toContain(
      'No stored login for hanzo: its API key comes from the environment (HANZO_API_KEY)',
    )
    expect(unwrapped(fromEnv.stderr)).toContain(
      'use $HANZO_API_KEY directly, or store a login for auth token to print: hanzo-dev auth login --provider hanzo',
    )
    expect(fromEnv.stdout + fromEnv.stderr).not.toMatch(/Not logged in|secret/)

    const fromOpenAI = await runCli(['auth', 'token', '--provider', 'openai'], {
      env: {...box.env, OPENAI_API_KEY: 'sk-env-secret'},
    })
    expect(unwrapped(fromOpenAI.stderr)).toContain(
      'No stored login for openai: its API key comes from the environment (OPENAI_API_KEY)',
    )

    const file = writeUserSettings(box, {api_key: 'hk-file-secret'})
    const fromFile = await runCli(['auth', 'token'], {env: box.env})
    expect(fromFile.exitCode).toBe(1)
    expect(unwrapped(fromFile.stderr)).toContain(`No stored login for hanzo: its API key comes from api_key in ${file}`)
    expect(fromFile.stdout + fromFile.stderr).not.toContain('secret')
  })

  it('falls back to the file with a warning when the keychain is asked for but unusable here', async () => {
    const out = await runCli(['auth', 'login', '--provider', 'hanzo', '--with-api-key', '--json'], {
      env: {...box.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', HANZO_CREDENTIALS_STORE: 'keychain'},
      input: 'hk-1',
    })
    expect(out.exitCode).toBe(0)
    expect(JSON.parse(out.stdout)).toMatchObject({backend: 'file'})
    expect(unwrapped(out.stderr)).toMatch(
      /Warning: Cannot write to the Secret Service keyring \(.*\); credentials go to .*credentials\.json/,
    )
    expect(storedCredentials(box)).toEqual({hanzo: {key: 'hk-1', type: 'api_key'}})
  })
})
