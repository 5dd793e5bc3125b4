import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {runDeviceFlow, type DeviceFlowOptions} from '../../../src/core/auth/device-flow.js'
import {discoverAuthServer} from '../../../src/core/auth/discovery.js'
import {providerEndpoints, resolveAuthProvider} from '../../../src/core/auth/providers.js'
import {Backoff} from '../../../src/core/protocol/backoff.js'
import {rejectionOf as thrown} from '../../helpers/thrown.js'
import {metadata, type ScriptedOAuthServer, startScriptedOAuthServer} from '../../support/oauth/scripted-server.js'

const DEVICE = {device_code: 'dc-1', expires_in: 600, user_code: 'ABCD-EFGH'}

describe('device flow against a scripted server (what oidc-provider never sends)', () => {
  let server: ScriptedOAuthServer
  let sleeps: number[]
  let warnings: string[]

  beforeEach(async () => {
    server = await startScriptedOAuthServer()
    sleeps = []
    warnings = []
  })
  afterEach(() => server.close())

  function options(overrides: Partial<DeviceFlowOptions> = {}): DeviceFlowOptions {
    return {
      backoff: new Backoff({baseMs: 100, maxMs: 1000, random: () => 0.5}),
      clientId: 'cli',
      deviceAuthorizationUrl: `${server.issuer}/device`,
      fetch: globalThis.fetch,
      issuer: server.issuer,
      onPrompt: () => {},
      onWarning: (message) => warnings.push(message),
      scopes: ['openid'],
      // Recorded, not waited: the test checks the schedule, never the clock.
      sleep: async (ms) => {
        sleeps.push(ms)
      },
      tokenUrl: `${server.issuer}/token`,
      ...overrides,
    }
  }

  it('polls at the interval, adds 5 s on slow_down, keeps going on authorization_pending', async () => {
    server.script['/device'] = [{body: {...DEVICE, interval: 2, verification_uri: `${server.issuer}/activate`}}]
    server.script['/token'] = [
      {body: {error: 'authorization_pending'}, status: 400},
      {body: {error: 'slow_down'}, status: 400},
      {body: {error: 'authorization_pending'}, status: 400},
      {body: {access_token: 'at', expires_in: 60, token_type: 'Bearer'}},
    ]
    const token = await runDeviceFlow(options())
    expect(token.access_token).toBe('at')
    expect(sleeps).toEqual([2000, 2000, 7000, 7000])
    const polls = server.requests.filter((r) => r.path === '/token')
    expect(polls.map((r) => r.form.grant_type)).toEqual(Array(4).fill('urn:ietf:params:oauth:grant-type:device_code'))
    expect(polls[0].form).toMatchObject({client_id: 'cli', device_code: 'dc-1'})
    expect(warnings).toEqual([])
  })

  it('defaults the interval to 5 s', async () => {
    server.script['/device'] = [{body: {...DEVICE, verification_uri: `${server.issuer}/activate`}}]
    server.script['/token'] = [{body: {access_token: 'at', token_type: 'Bearer'}}]
    await runDeviceFlow(options())
    expect(sleeps).toEqual([5000])
  })

  it('retries a 500 and an HTML page with backoff, then succeeds', async () => {
    server.script['/device'] = [
      {body: '<html>bad gateway</html>', status: 502},
      {body: {...DEVICE, interval: 1, verification_uri: `${server.issuer}/a`}},
    ]
    server.script['/token'] = [
      {body: {error: 'temporarily_unavailable_page'}, status: 500},
      {body: '<html>oops</html>', status: 200},
      {body: {access_token: 'at', token_type: 'Bearer'}},
    ]
    const token = await runDeviceFlow(options())
    expect(token.access_token).toBe('at')
    // Backoff (base 100, r = 0.5: half the ceiling, doubling per failure in a row) around the 1 s interval.
    expect(sleeps).toEqual([50, 1000, 50, 100])
  })

  it('gives up clearly after repeated server errors', async () => {
    server.script['/device'] = [{body: {...DEVICE, interval: 1, verification_uri: `${server.issuer}/a`}}]
    server.script['/token'] = [{body: 'Service Unavailable', status: 503}]
    const error = await thrown(runDeviceFlow(options({maxServerErrors: 3})))
    expect(error).toMatchObject({
      message: expect.stringMatching(/HTTP 503 with a body that is not JSON 3 times in a row/),
      name: 'UserError',
    })
  })

  it('ends with a clear message on access_denied and expired_token', async () => {
    server.script['/device'] = [{body: {...DEVICE, verification_uri: `${server.issuer}/a`}}]
    server.script['/token'] = [{body: {error: 'access_denied'}, status: 400}]
    expect((await thrown(runDeviceFlow(options()))).message).toBe('The login was denied on the verification page')
    server.script['/token'] = [{body: {error: 'expired_token'}, status: 400}]
    expect((await thrown(runDeviceFlow(options()))).message).toBe('The code expired before the login was approved')
  })

  it('strips control characters from what it shows, and warns about a foreign verification host', async () => {
    server.script['/device'] = [
      {body: {...DEVICE, user_code: 'AB\u001b[2JCD', verification_uri: 'https://evil.example/\u0007activate'}},
    ]
    server.script['/token'] = [{body: {access_token: 'at', token_type: 'Bearer'}}]
    const prompts: unknown[] = []
    await runDeviceFlow(options({onPrompt: (prompt) => void prompts.push(prompt)}))
    expect(prompts).toEqual([
      {expiresInSeconds: 600, userCode: 'AB[2JCD', verificationUri: 'https://evil.example/activate'},
    ])
    expect(warnings).toEqual([
      expect.stringContaining("The verification page is on evil.example, not on the issuer's host 127.0.0.1"),
    ])
  })

  it('stops polling at once when aborted (Ctrl-C)', async () => {
    server.script['/device'] = [{body: {...DEVICE, verification_uri: `${server.issuer}/a`}}]
    server.script['/token'] = [{body: {error: 'authorization_pending'}, status: 400}]
    const controller = new AbortController()
    const reason = new Error('Login cancelled')
    const {setTimeout: realSleep} = await import('node:timers/promises')
    const login = runDeviceFlow(
      options({
        onPrompt: () => controller.abort(reason),
        signal: controller.signal,
        sleep: (ms, signal) => realSleep(ms, undefined, {signal}),
      }),
    )
    await expect(login).rejects.toMatchObject({cause: reason})
    expect(server.requests.filter((r) => r.path === '/token')).toEqual([])
  })
})

describe('discovery against a scripted server', () => {
  let server: ScriptedOAuthServer
  beforeEach(async () => {
    server = await startScriptedOAuthServer()
  })
  afterEach(() => server.close())

  it('refuses metadata that does not list S256 for a browser login', async () => {
    server.script['/.well-known/openid-configuration'] = [
      {body: metadata(server.issuer, {code_challenge_methods_supported: ['plain']})},
    ]
    const provider = resolveAuthProvider(server.issuer, {}, 'cli')
    const error = await thrown(providerEndpoints(provider, 'pkce', globalThis.fetch))
    expect(error.message).toMatch(/does not list S256 in code_challenge_methods_supported/)
    // The device flow does not use PKCE: the same metadata serves it.
    expect((await providerEndpoints(provider, 'device', globalThis.fetch)).device_authorization_endpoint).toBe(
      `${server.issuer}/device`,
    )
  })

  it('prefers RFC 8414 metadata, and refuses a document naming another issuer', async () => {
    server.script['/.well-known/oauth-authorization-server'] = [{body: metadata('https://other.example')}]
    expect((await thrown(discoverAuthServer(server.issuer, globalThis.fetch))).message).toMatch(
      /names another issuer \(https:\/\/other.example\/\)/,
    )
  })

  it("takes an HTML page at RFC 8414's address for a catch-all web app, and reads openid-configuration", async () => {
    server.script['/.well-known/oauth-authorization-server'] = [{body: '<!doctype html><title>App</title>'}]
    expect((await discoverAuthServer(server.issuer, globalThis.fetch)).token_endpoint).toBe(`${server.issuer}/token`)
  })

  it('names the issuer when it publishes no metadata, and when it cannot be reached', async () => {
    server.script['/.well-known/openid-configuration'] = []
    expect((await thrown(discoverAuthServer(server.issuer, globalThis.fetch))).message).toMatch(
      /publishes no OAuth metadata \(HTTP 404, HTTP 404/,
    )
    // A port nothing listens on (a fresh one: a pooled connection to a closed server fails otherwise).
    const closed = await startScriptedOAuthServer()
    await closed.close()
    expect(await thrown(discoverAuthServer(closed.issuer, globalThis.fetch))).toMatchObject({
      message: expect.stringMatching(
        /^Cannot reach http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-authorization-server \(ECONNREFUSED\)/,
      ),
      name: 'UserError',
    })
  })
})
