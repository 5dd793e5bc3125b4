import {createHash} from 'node:crypto'
import {readFileSync, writeFileSync} from 'node:fs'
import {afterAll, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {startFakeModel} from '../../../src/testing/fake-model/server.js'
import {makeSandbox, runCli, type Sandbox, unwrapped} from '../../helpers/cli.js'
import {HeadlessBrowser} from '../../support/oidc/browser.js'
import {type OidcServer, startOidcServer} from '../../support/oidc/server.js'
import {
  credentialsFile,
  pasteLogin,
  startLogin,
  storedCredentials,
  writeUserSettings,
} from '../../support/oauth/cli-login.js'

// Access tokens live 30 s, under the 60 s safety margin: every use renews the login.
describe('stored logins in use: refresh with rotation, concurrency, revocation, run', () => {
  let server: OidcServer
  let box: Sandbox
  beforeAll(async () => {
    server = await startOidcServer({accessTokenTtl: 30})
  })
  afterAll(() => server.close())
  beforeEach(() => {
    box?.cleanup()
    box = makeSandbox('hanzo-tokens-')
  })

  function settings(extra: Record<string, unknown> = {}) {
    writeUserSettings(box, {
      providers: {
        corp: {
          oauth: {client_id: server.clientId, issuer: server.issuer, scopes: ['openid', 'offline_access']},
          ...extra,
        },
      },
    })
  }

  it('auth token renews an expired login and persists the rotated refresh token', async () => {
    settings()
    await pasteLogin(box, 'corp', 'alice')
    const before = storedCredentials(box).corp
    const first = await runCli(['auth', 'token', '--provider', 'corp'], {env: box.env})
    expect(first.exitCode).toBe(0)
    const after = storedCredentials(box).corp
    expect(first.stdout).toBe(after.accessToken)
    expect(after.accessToken).not.toBe(before.accessToken)
    expect(after.refreshToken).not.toBe(before.refreshToken)
    expect(after.account).toBe('alice')

    const second = await runCli(['auth', 'token'], {env: box.env})
    expect(second.exitCode).toBe(0)
    expect(second.stdout).not.toBe(first.stdout)
  })

  it('two concurrent auth token calls renew once and the grant survives', async () => {
    settings()
    await pasteLogin(box, 'corp', 'alice')
    const [a, b] = await Promise.all([
      runCli(['auth', 'token'], {env: box.env}),
      runCli(['auth', 'token'], {env: box.env}),
    ])
    expect([a.exitCode, b.exitCode, a.stderr, b.stderr]).toEqual([0, 0, '', ''])
    // Renewed twice in a row (the 30 s token is "expired" at once), never with a spent refresh token.
    const third = await runCli(['auth', 'token'], {env: box.env})
    expect(third.exitCode).toBe(0)
    expect(third.stdout).toBe(storedCredentials(box).corp.accessToken)
  })

  it('an old refresh token used again revokes the grant: a clear message to log in again', async () => {
    settings()
    await pasteLogin(box, 'corp', 'alice')
    const stale = readFileSync(credentialsFile(box), 'utf8')
    expect((await runCli(['auth', 'token'], {env: box.env})).exitCode).toBe(0)
    // A copy of the store from before the rotation (a restored backup, a second machine).
    writeFileSync(credentialsFile(box), stale, {mode: 0o600})
    const reused = await runCli(['auth', 'token', '--provider', 'corp'], {env: box.env})
    expect(reused.exitCode).toBe(1)
    expect(unwrapped(reused.stderr)).toContain('The corp login was revoked, or its refresh token was already used')
    expect(unwrapped(reused.stderr)).toContain('run hanzo-dev auth login --provider corp')
    expect(reused.stdout).toBe('')
  })

  it('hanzo-dev run renews the login and sends the new token to the provider', async () => {
    settings()
    await pasteLogin(box, 'corp', 'alice')
    // The fake model answers only a request carrying the token `auth token` shows afterwards.
    const model = await startFakeModel({turns: [{expect: {last_user_contains: 'say hello'}, text: 'Hello from corp.'}]})
    try {
      settings({base_url: model.url})
      const out = await runCli(['run', 'say hello'], {env: {...box.env, HANZO_PROVIDER: 'corp'}})
      expect(out).toMatchObject({exitCode: 0, stdout: 'Hello from corp.'})
      expect(model.requests[0].headers.authorization).toBe('Bearer [redacted]')
      expect(storedCredentials(box).corp.refreshToken).toBeDefined()
    } finally {
      await model.close()
    }
  })
})

describe('hanzo-dev run with a stored login', () => {
  it('sends exactly the stored access token (checked by its hash); a user-tier API key wins over it', async () => {
    const server = await startOidcServer()
    const box = makeSandbox('hanzo-run-token-')
    const oauth = {client_id: server.clientId, issuer: server.issuer, scopes: ['openid']}
    try {
      writeUserSettings(box, {providers: {corp: {oauth}}})
      await pasteLogin(box, 'corp', 'alice')
      const sha256 = createHash('sha256')
        .update(String(storedCredentials(box).corp.accessToken))
        .digest('hex')
      const userKey = 'sk-user-tier-key'
      const keyHash = createHash('sha256').update(userKey).digest('hex')
      const model = await startFakeModel({
        turns: [
          {expect: {authorization_sha256: sha256}, text: 'ok'},
          {expect: {authorization_sha256: keyHash}, text: 'key'},
        ],
      })
      try {
        writeUserSettings(box, {provider: 'corp', providers: {corp: {base_url: model.url, oauth}}})
        expect(await runCli(['run', 'hi'], {env: box.env})).toMatchObject({exitCode: 0, stdout: 'ok'})
        // An API key in the user settings wins over the stored login (HIP-301 §6).
        writeUserSettings(box, {provider: 'corp', providers: {corp: {api_key: userKey, base_url: model.url, oauth}}})
        expect(await runCli(['run', 'hi'], {env: box.env})).toMatchObject({exitCode: 0, stdout: 'key'})
      } finally {
        await model.close()
      }
    } finally {
      box.cleanup()
      await server.close()
    }
  })
})

describe('hanzo-dev auth login --device against oidc-provider', () => {
  // Not the 5 s a client waits when the server names no interval (device-flow-faults.test.ts covers that).
  const POLL_EVERY_SECOND = {devicePollInterval: 1}
  let box: Sandbox
  beforeEach(() => {
    box?.cleanup()
    box = makeSandbox('hanzo-device-')
  })

  async function deviceLogin(server: OidcServer, approve: boolean | undefined) {
    writeUserSettings(box, {
      providers: {
        corp: {oauth: {client_id: server.clientId, issuer: server.issuer, scopes: ['openid', 'offline_access']}},
      },
    })
    const login = startLogin(['--provider', 'corp', '--device'], box)
    const [, uri, code] = await login.read(/open (http:\/\/\S+) on any device and enter the code:\n\n {2}(\S+)\n/)
    if (approve !== undefined) await new HeadlessBrowser().approveDevice(uri, code, {account: 'carol', approve})
    return login.result
  }

  it('logs in once the code is approved on another device', async () => {
    const server = await startOidcServer(POLL_EVERY_SECOND)
    try {
      const end = await deviceLogin(server, true)
      expect(end).toMatchObject({exitCode: 0, stdout: expect.stringContaining('Logged in to corp as carol')})
      expect(storedCredentials(box).corp).toMatchObject({refreshToken: expect.any(String), type: 'oauth'})
    } finally {
      await server.close()
    }
  })

  it('ends clearly when the code is denied', async () => {
    const server = await startOidcServer(POLL_EVERY_SECOND)
    try {
      const denied = await deviceLogin(server, false)
      expect(denied.exitCode).toBe(1)
      expect(unwrapped(denied.stderr)).toContain('The login was denied on the verification page')
    } finally {
      await server.close()
    }
  })

  it('ends clearly when the code expires', async () => {
    const server = await startOidcServer({...POLL_EVERY_SECOND, deviceCodeTtl: 1})
    try {
      const expired = await deviceLogin(server, undefined)
      expect(expired.exitCode).toBe(1)
      expect(unwrapped(expired.stderr)).toContain('The code expired before the login was approved')
    } finally {
      await server.close()
    }
  })
})
