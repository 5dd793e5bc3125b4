import {describe, expect, it} from 'vitest'

import {OAuthFlow} from '../../../src/core/auth/oauth-flow.js'
import {PkceChallenge} from '../../../src/core/protocol/pkce.js'

const flow = (options: {issRequired?: boolean} = {}) =>
  new OAuthFlow({
    clientId: 'cli',
    fetch: () => Promise.reject(new Error('unused')),
    issuer: 'https://id.example',
    redirectUri: 'http://127.0.0.1:5000/callback',
    tokenUrl: 'https://id.example/token',
    ...options,
  })
const redirect = (query: Record<string, string>) => ({params: new URLSearchParams(query)})

describe('OAuthFlow', () => {
  it('builds an authorization request with a fresh S256 challenge and state', () => {
    const first = flow().authorizationRequest('https://id.example/authorize?tenant=x', ['openid', 'email'], {
      prompt: 'consent',
    })
    const second = flow().authorizationRequest('https://id.example/authorize', [])
    const params = Object.fromEntries(new URL(first.url).searchParams)
    expect(params).toEqual({
      client_id: 'cli',
      code_challenge: first.pkce.challenge,
      code_challenge_method: 'S256',
      prompt: 'consent',
      redirect_uri: 'http://127.0.0.1:5000/callback',
      response_type: 'code',
      scope: 'openid email',
      state: first.state,
      tenant: 'x',
    })
    expect(PkceChallenge.fromVerifier(first.pkce.verifier).challenge).toBe(first.pkce.challenge)
    expect(second.state).not.toBe(first.state)
    expect(new URL(second.url).searchParams.has('scope')).toBe(false)
  })

  it('accepts the redirect of this login only', () => {
    expect(flow().checkRedirect(redirect({code: 'c', iss: 'https://id.example/', state: 's'}), 's')).toBe('c')
    expect(() => flow().checkRedirect(redirect({code: 'c', state: 'other'}), 's')).toThrow(/state does not match/)
    expect(() => flow().checkRedirect(redirect({code: 'c', iss: 'https://evil.example', state: 's'}), 's')).toThrow(
      /another issuer \(https:\/\/evil\.example\)/,
    )
    expect(() => flow({issRequired: true}).checkRedirect(redirect({code: 'c', state: 's'}), 's')).toThrow(
      /carries no iss/,
    )
    expect(() => flow().checkRedirect(redirect({state: 's'}), 's')).toThrow(/no authorization code/)
  })

  it("reports an error redirect in the server's words, control characters stripped", () => {
    expect(() =>
      flow().checkRedirect(
        redirect({error: 'access_denied', error_description: 'user said no\u001b[31m', state: 's'}),
        's',
      ),
    ).toThrow('The login was denied (access_denied: user said no[31m)')
    expect(() => flow().checkRedirect(redirect({error: 'invalid_scope', state: 's'}), 's')).toThrow(
      'The authorization server refused the login (invalid_scope)',
    )
  })

  it('takes a bare pasted code without a state (PKCE still binds it to this login)', () => {
    expect(flow().checkRedirect({bareCode: true, params: new URLSearchParams({code: 'pasted'})}, 's')).toBe('pasted')
  })
})
