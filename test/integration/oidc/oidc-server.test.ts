// Proves the test authorization server (test/support/oidc) with nothing but fetch, so the [auth]
// tests can trust that a failure is theirs: every behaviour they will rely on is pinned here.
import {createHash, randomBytes} from 'node:crypto'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'

import {HeadlessBrowser} from '../../support/oidc/browser.js'
import {type OidcServer, startOidcServer} from '../../support/oidc/server.js'

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'

interface Discovery {
  authorization_endpoint: string
  device_authorization_endpoint: string
  revocation_endpoint: string
  token_endpoint: string
  [key: string]: unknown
}

interface TokenAnswer {
  status: number
  body: {access_token?: string; error?: string; expires_in?: number; id_token?: string; refresh_token?: string}
}

async function discover(server: OidcServer): Promise<Discovery> {
  const response = await fetch(`${server.issuer}/.well-known/openid-configuration`)
  expect(response.status).toBe(200)
  return (await response.json()) as Discovery
}

async function post(url: string, params: Record<string, string>): Promise<TokenAnswer> {
  const response = await fetch(url, {body: new URLSearchParams(params), method: 'POST'})
  const text = await response.text()
  return {body: text ? (JSON.parse(text) as TokenAnswer['body']) : {}, status: response.status}
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url')
  return {challenge: createHash('sha256').update(verifier).digest('base64url'), verifier}
}

/** A loopback redirect URI on a port the client "picked" — nothing listens there. */
function loopbackRedirect() {
  return `http://127.0.0.1:${49152 + Math.floor(Math.random() * 16000)}/callback`
}

describe('test OIDC server', () => {
  let server: OidcServer
  let meta: Discovery

  beforeAll(async () => {
    server = await startOidcServer({accessTokenTtl: 120})
    meta = await discover(server)
  })
  afterAll(async () => server.close())

  /** Runs the browser part of an authorization-code flow and returns the callback URL. */
  async function authorize(options: {consent?: boolean; promptConsent?: boolean} = {}) {
    const {challenge, verifier} = pkce()
    const redirectUri = loopbackRedirect()
    const state = randomBytes(16).toString('base64url')
    const url = new URL(meta.authorization_endpoint)
    url.search = new URLSearchParams({
      client_id: server.clientId,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid offline_access',
      state,
      ...(options.promptConsent === false ? {} : {prompt: 'consent'}),
    }).toString()
    const callback = await new HeadlessBrowser().approveAuthorization(url, {account: 'alice', consent: options.consent})
    return {callback, redirectUri, state, verifier}
  }

  function exchange(code: string, redirectUri: string, verifier?: string) {
    const params: Record<string, string> = {
      client_id: server.clientId,
      code,
      grant_type: 'authorization_code',
      redirect_uri: redirectUri,
    }
    if (verifier !== undefined) params.code_verifier = verifier
    return post(meta.token_endpoint, params)
  }

  function refresh(refreshToken: string) {
    return post(meta.token_endpoint, {
      client_id: server.clientId,
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
    })
  }

  it('publishes discovery with S256-only PKCE, the device endpoint, revocation and iss support', () => {
    expect(meta.issuer).toBe(server.issuer)
    expect(server.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(meta.code_challenge_methods_supported).toEqual(['S256'])
    expect(meta.device_authorization_endpoint).toBe(`${server.issuer}/device/auth`)
    expect(meta.revocation_endpoint).toBe(`${server.issuer}/token/revocation`)
    expect(meta.authorization_response_iss_parameter_supported).toBe(true)
    expect(meta.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'refresh_token', DEVICE_CODE_GRANT]),
    )
  })

  it('runs authorization code + PKCE to a loopback redirect on any port, with state and iss', async () => {
    const {callback, redirectUri, state, verifier} = await authorize()
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri)
    expect(callback.searchParams.get('state')).toBe(state)
    expect(callback.searchParams.get('iss')).toBe(server.issuer)
    const code = callback.searchParams.get('code')
    expect(code).toBeTruthy()

    const tokens = await exchange(code!, redirectUri, verifier)
    expect(tokens.status).toBe(200)
    expect(tokens.body.access_token).toBeTruthy()
    expect(tokens.body.refresh_token).toBeTruthy()
    expect(tokens.body.id_token).toBeTruthy()
    expect(tokens.body.expires_in).toBe(120)
  })

  it('drops offline_access, and so the refresh token, unless the request says prompt=consent', async () => {
    const {callback, redirectUri, verifier} = await authorize({promptConsent: false})
    const tokens = await exchange(callback.searchParams.get('code')!, redirectUri, verifier)
    expect(tokens.status).toBe(200)
    expect(tokens.body.access_token).toBeTruthy()
    expect(tokens.body.refresh_token).toBeUndefined()
  })

  it('refuses an authorization request without a code challenge', async () => {
    const url = new URL(meta.authorization_endpoint)
    const redirectUri = loopbackRedirect()
    url.search = new URLSearchParams({
      client_id: server.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid',
      state: 's',
    }).toString()
    const response = await fetch(url, {redirect: 'manual'})
    const callback = new URL(response.headers.get('location')!)
    expect(callback.searchParams.get('error')).toBe('invalid_request')
    expect(callback.searchParams.get('error_description')).toMatch(/PKCE/)
  })

  it('redirects a denied consent back with access_denied', async () => {
    const {callback, state} = await authorize({consent: false})
    expect(callback.searchParams.get('error')).toBe('access_denied')
    expect(callback.searchParams.get('state')).toBe(state)
    expect(callback.searchParams.get('iss')).toBe(server.issuer)
  })

  it('refuses a token request without the code_verifier', async () => {
    const {callback, redirectUri} = await authorize()
    const tokens = await exchange(callback.searchParams.get('code')!, redirectUri)
    expect(tokens.status).toBe(400)
    expect(tokens.body.error).toBe('invalid_grant')
  })

  it('refuses a replayed authorization code', async () => {
    const {callback, redirectUri, verifier} = await authorize()
    const code = callback.searchParams.get('code')!
    expect((await exchange(code, redirectUri, verifier)).status).toBe(200)
    const replay = await exchange(code, redirectUri, verifier)
    expect(replay.status).toBe(400)
    expect(replay.body.error).toBe('invalid_grant')
  })

  it('rotates refresh tokens, and reusing an old one revokes the whole grant', async () => {
    const {callback, redirectUri, verifier} = await authorize()
    const first = await exchange(callback.searchParams.get('code')!, redirectUri, verifier)
    const old = first.body.refresh_token!

    const rotated = await refresh(old)
    expect(rotated.status).toBe(200)
    expect(rotated.body.access_token).toBeTruthy()
    expect(rotated.body.refresh_token).toBeTruthy()
    expect(rotated.body.refresh_token).not.toBe(old)

    const reuse = await refresh(old)
    expect(reuse.status).toBe(400)
    expect(reuse.body.error).toBe('invalid_grant')

    const newest = await refresh(rotated.body.refresh_token!)
    expect(newest.status).toBe(400)
    expect(newest.body.error).toBe('invalid_grant')
  })

  it('revokes a refresh token at the revocation endpoint', async () => {
    const {callback, redirectUri, verifier} = await authorize()
    const tokens = await exchange(callback.searchParams.get('code')!, redirectUri, verifier)
    const revoked = await post(meta.revocation_endpoint, {
      client_id: server.clientId,
      token: tokens.body.refresh_token!,
      token_type_hint: 'refresh_token',
    })
    expect(revoked.status).toBe(200)
    const after = await refresh(tokens.body.refresh_token!)
    expect(after.body.error).toBe('invalid_grant')
  })

  describe('device flow', () => {
    interface DeviceStart {
      device_code: string
      user_code: string
      verification_uri: string
      verification_uri_complete: string
      expires_in: number
      interval: number
    }

    async function startDevice(target = server): Promise<DeviceStart> {
      const endpoint =
        target === server ? meta.device_authorization_endpoint : (await discover(target)).device_authorization_endpoint
      const response = await fetch(endpoint, {
        body: new URLSearchParams({client_id: target.clientId, scope: 'openid offline_access'}),
        method: 'POST',
      })
      expect(response.status).toBe(200)
      return (await response.json()) as DeviceStart
    }

    function poll(deviceCode: string, target = server) {
      return post(`${target.issuer}/token`, {
        client_id: target.clientId,
        device_code: deviceCode,
        grant_type: DEVICE_CODE_GRANT,
      })
    }

    it('is pending until the user approves, then issues tokens', async () => {
      const start = await startDevice()
      expect(start.verification_uri).toBe(`${server.issuer}/device`)
      expect(start.expires_in).toBe(600)
      expect(start.interval).toBeUndefined()

      const pending = await poll(start.device_code)
      expect(pending.status).toBe(400)
      expect(pending.body.error).toBe('authorization_pending')

      await new HeadlessBrowser().approveDevice(start.verification_uri, start.user_code, {account: 'bob'})
      const tokens = await poll(start.device_code)
      expect(tokens.status).toBe(200)
      expect(tokens.body.access_token).toBeTruthy()
      expect(tokens.body.refresh_token).toBeTruthy()

      const again = await poll(start.device_code)
      expect(again.body.error).toBe('invalid_grant')
    })

    it('answers access_denied when the user denies', async () => {
      const start = await startDevice()
      await new HeadlessBrowser().approveDevice(start.verification_uri, start.user_code, {
        account: 'bob',
        approve: false,
      })
      const denied = await poll(start.device_code)
      expect(denied.status).toBe(400)
      expect(denied.body.error).toBe('access_denied')
    })

    it('names the poll interval it is given, and answers expired_token once the device code outlives its TTL', async () => {
      const short = await startOidcServer({deviceCodeTtl: 1, devicePollInterval: 1})
      try {
        const start = await startDevice(short)
        expect([start.expires_in, start.interval]).toEqual([1, 1])
        // The server runs in this process: its clock moves past the TTL without the test waiting.
        vi.useFakeTimers({toFake: ['Date']})
        vi.setSystemTime(Date.now() + 1500)
        const expired = await poll(start.device_code, short)
        expect(expired.status).toBe(400)
        expect(expired.body.error).toBe('expired_token')
      } finally {
        vi.useRealTimers()
        await short.close()
      }
    })
  })
})
