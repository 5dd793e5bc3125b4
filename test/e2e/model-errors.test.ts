import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {runCli, unwrapped, useSandboxDirs} from '../helpers/cli.js'

// Issue 12, items 8 and 9: what a failed model call prints. Secrets are redacted as whole
// tokens, and only real-looking ones; the base URL is shown with its path, the user's own
// --base-url as typed; a local server's 401 says why no key went there.

const KEY = 'sk-test-e2e-0123456789abcdef'
const REFUSED = {body: {code: 'invalid_api_key', message: `Incorrect API key provided: ${KEY}.`}, status: 401}

describe('model errors as a user reads them', () => {
  const dirs = useSandboxDirs('hanzo-model-errors-', 'project')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  const run = (args: string[], env: Record<string, string> = {}) =>
    runCli(['run', 'hi', ...args], {cwd: dirs.project, env: {...dirs.box.env, ...env}})

  function writeUserSettings(settings: object): void {
    mkdirSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'), JSON.stringify(settings))
  }

  it('keeps the message whole when the key is a word of it, and shows the base URL path', async () => {
    // 127.0.0.2 is not a local server to the key rules, so the key is sent, and scrubbed from what comes back.
    writeUserSettings({provider: 'corp', providers: {corp: {api_key: 'model', base_url: 'http://127.0.0.2:9/v1'}}})
    const result = await run([])
    expect(result.exitCode).toBe(1)
    expect(unwrapped(result.stderr)).toContain(
      'Could not connect to the model server at http://127.0.0.2:9/v1: connection refused.',
    )
    expect(result.stderr).not.toContain('[redacted]')
  })

  it('does not cut a one-letter key out of every word', async () => {
    const result = await run(['--base-url', 'http://nonexistent.invalid/v1'], {HANZO_API_KEY: 'k'})
    expect(result.exitCode).toBe(1)
    const message = unwrapped(result.stderr)
    expect(message).toContain('Could not find the model server at http://nonexistent.invalid/v1')
    expect(message).toContain('Check your network connection.')
    expect(message).not.toContain('[redacted]')
  })

  it('shows the --base-url the user typed when it is not a URL', async () => {
    const result = await run(['--base-url', 'notaurl'], {HANZO_API_KEY: KEY})
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('The base URL "notaurl" is not a URL')
  })

  it('says a local server got no key, and which setting sends one', async () => {
    model = await startFakeModel({turns: [REFUSED, REFUSED]})
    const result = await run(['--base-url', model.url], {HANZO_API_KEY: KEY, OPENAI_API_KEY: KEY})
    expect(result.exitCode).toBe(1)
    expect(model.requests[0].headers.authorization).toBeUndefined()
    const message = unwrapped(result.stderr)
    expect(message).toContain(`no key was sent: a local server (${model.url}) gets none of HANZO_API_KEY`)
    expect(message).toContain('set providers.hanzo.api_key')
    expect(message).not.toMatch(/check your API key/i)

    // Set as the hint says, the key goes there; the server echoing it back never shows it.
    expect(
      await runCli(['config', 'set', 'providers.hanzo.api_key', KEY], {cwd: dirs.project, env: dirs.box.env}),
    ).toMatchObject({exitCode: 0})
    const sent = await run(['--base-url', model.url])
    expect(model.requests[1].headers.authorization).toBe('Bearer [redacted]')
    expect(unwrapped(sent.stderr)).toContain('Incorrect API key provided: [redacted].')
    expect(unwrapped(sent.stderr)).toContain('check the key sent to this local server: providers.hanzo.api_key')
    expect(sent.stderr + sent.stdout).not.toContain(KEY)
  })
})
