import {describe, expect, it} from 'vitest'

import {
  AUTH_PROVIDERS,
  loginChoices,
  loginProviders,
  providerEndpoints,
  resolveAuthProvider,
  storedProviderName,
} from '../../../src/core/auth/providers.js'
import {rejectionOf} from '../../helpers/thrown.js'

const noFetch = () => Promise.reject(new Error('no request expected'))

describe('the provider table', () => {
  it('holds only what could be confirmed: Hanzo has an issuer and a client, the others ask for settings', () => {
    expect(AUTH_PROVIDERS.hanzo).toMatchObject({clientId: 'app-hanzo', flow: 'pkce', issuer: 'https://hanzo.id'})
    expect(AUTH_PROVIDERS.anthropic).toEqual({flow: 'pkce', scopes: []})
    expect(AUTH_PROVIDERS.openai).toEqual({flow: 'device', scopes: []})
  })

  it('lets the user tier override any field, and adds providers that define oauth', () => {
    const config = {
      providers: {
        anthropic: {oauth: {client_id: 'mine', issuer: 'https://auth.example', scopes: ['a']}},
        corp: {oauth: {issuer: 'https://id.corp'}},
        plain: {},
      },
    }
    expect(resolveAuthProvider('anthropic', config)).toEqual({
      clientId: 'mine',
      flow: 'pkce',
      issuer: 'https://auth.example',
      name: 'anthropic',
      scopes: ['a'],
    })
    expect(resolveAuthProvider('corp', config)).toMatchObject({
      flow: 'pkce',
      issuer: 'https://id.corp',
      scopes: ['openid', 'offline_access'],
    })
    expect(loginProviders(config)).toEqual(['anthropic', 'hanzo', 'openai', 'corp'])
    expect(() => resolveAuthProvider('plain', config)).toThrow(/Unknown provider "plain"/)
  })

  it('offers first the logins that work as the settings are, then an API key for each model provider', () => {
    const ways = (config: object) => loginChoices(config).map(({method, provider}) => `${provider} ${method}`)
    expect(ways({})).toEqual(['hanzo oauth', 'hanzo api_key', 'anthropic api_key', 'openai api_key'])
    const config = {
      providers: {
        anthropic: {oauth: {client_id: 'mine', issuer: 'https://auth.example'}},
        corp: {oauth: {client_id: 'c', issuer: 'https://id.corp'}},
        half: {oauth: {issuer: 'https://half.example'}},
      },
    }
    expect(ways(config)).toEqual([
      'hanzo oauth',
      'anthropic oauth',
      'corp oauth',
      'hanzo api_key',
      'anthropic api_key',
      'openai api_key',
    ])
  })

  it('maps an issuer URL to the provider naming it, else stores it under the URL', () => {
    const config = {providers: {corp: {oauth: {issuer: 'https://id.corp/'}}}}
    expect(storedProviderName('https://id.corp', config)).toBe('corp')
    expect(storedProviderName('https://other.example/', config)).toBe('https://other.example')
    expect(resolveAuthProvider('https://other.example', config, 'cli')).toMatchObject({
      clientId: 'cli',
      issuer: 'https://other.example',
      name: 'https://other.example',
    })
  })

  it('says what to configure rather than guessing an endpoint', async () => {
    const anthropic = await rejectionOf(providerEndpoints(resolveAuthProvider('anthropic', {}), 'pkce', noFetch))
    expect(anthropic.message).toBe(
      'hanzo-dev does not know how to log in to anthropic: providers.anthropic.oauth.client_id and providers.anthropic.oauth.issuer are not set',
    )
    expect((anthropic as {hint?: string}).hint).toContain('hanzo-dev auth login --provider anthropic --with-api-key')
    const url = await rejectionOf(providerEndpoints(resolveAuthProvider('https://id.example', {}), 'pkce', noFetch))
    expect(url.message).toBe('Logging in to https://id.example needs a client id')
  })

  it('uses configured endpoints without discovery', async () => {
    const config = {
      providers: {corp: {oauth: {authorize_url: 'https://a/authorize', client_id: 'c', token_url: 'https://a/token'}}},
    }
    expect(await providerEndpoints(resolveAuthProvider('corp', config), 'pkce', noFetch)).toEqual({
      authorization_endpoint: 'https://a/authorize',
      issuer: '',
      token_endpoint: 'https://a/token',
    })
    const device = await rejectionOf(providerEndpoints(resolveAuthProvider('corp', config), 'device', noFetch))
    expect(device.message).toMatch(/providers\.corp\.oauth\.issuer is not set/)
  })
})
