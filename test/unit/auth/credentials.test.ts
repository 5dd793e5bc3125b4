import {describe, expect, it} from 'vitest'

import {isExpired, parseCredential, summarizeCredential} from '../../../src/core/auth/credentials.js'

describe('isExpired', () => {
  const now = 1_000_000
  it('never expires an API key or a token without an expiry', () => {
    expect(isExpired({key: 'k', type: 'api_key'}, now)).toBe(false)
    expect(isExpired({accessToken: 'a', type: 'oauth'}, now)).toBe(false)
  })

  it('expires a token inside the skew', () => {
    expect(isExpired({accessToken: 'a', expiresAt: now + 59_999, type: 'oauth'}, now)).toBe(true)
    expect(isExpired({accessToken: 'a', expiresAt: now + 60_001, type: 'oauth'}, now)).toBe(false)
    expect(isExpired({accessToken: 'a', expiresAt: now + 10, type: 'oauth'}, now, 0)).toBe(false)
    expect(isExpired({accessToken: 'a', expiresAt: now, type: 'oauth'}, now, 0)).toBe(true)
  })
})

describe('parseCredential', () => {
  it('accepts both kinds and drops unknown fields', () => {
    expect(parseCredential({extra: 1, key: 'k', type: 'api_key'})).toEqual({key: 'k', type: 'api_key'})
    const oauth = {
      accessToken: 'a',
      account: 'me',
      expiresAt: 5,
      issuer: 'https://hanzo.id',
      refreshToken: 'r',
      scope: 's',
      tokenType: 'Bearer',
      type: 'oauth',
    }
    expect(parseCredential(oauth)).toEqual(oauth)
  })

  it('names the bad field without quoting any value', () => {
    const canary = 'CANARY-SECRET-1234'
    const reasons = [
      parseCredential({key: 42, type: 'api_key'}),
      parseCredential({accessToken: canary, refreshToken: 7, type: 'oauth'}),
      parseCredential({accessToken: canary, expiresAt: canary, type: 'oauth'}),
      parseCredential({key: canary, type: canary}),
      parseCredential(canary),
    ]
    for (const reason of reasons) {
      expect(typeof reason).toBe('string')
      expect(reason).not.toContain(canary)
    }

    expect(reasons[1]).toContain('refreshToken')
  })
})

describe('summarizeCredential', () => {
  it('keeps only non-secret facts', () => {
    expect(summarizeCredential('openai', {key: 'sk-secret', type: 'api_key'})).toEqual({
      provider: 'openai',
      type: 'api_key',
    })
    const summary = summarizeCredential('hanzo', {
      accessToken: 'at-secret',
      account: 'me',
      expiresAt: 9,
      refreshToken: 'rt-secret',
      type: 'oauth',
    })
    expect(summary).toEqual({account: 'me', expiresAt: 9, hasRefreshToken: true, provider: 'hanzo', type: 'oauth'})
  })
})
