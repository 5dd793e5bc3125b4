import {createHash} from 'node:crypto'
import {describe, expect, it} from 'vitest'

import {PkceChallenge} from '../../../src/core/protocol/index.js'

describe('PkceChallenge.generate', () => {
  it('makes verifiers of the asked length from the unreserved set, each one new', () => {
    const seen = new Set<string>()
    for (const length of [43, 64, 100, 128]) {
      for (let i = 0; i < 50; i++) {
        const pkce = PkceChallenge.generate(length)
        expect(pkce.verifier).toMatch(new RegExp(`^[A-Za-z0-9._~-]{${length}}$`))
        expect(pkce.method).toBe('S256')
        expect(pkce.challenge).toBe(createHash('sha256').update(pkce.verifier).digest('base64url'))
        expect(PkceChallenge.fromVerifier(pkce.verifier).challenge).toBe(pkce.challenge)
        seen.add(pkce.verifier)
      }
    }

    expect(seen.size).toBe(200)
  })

  it('defaults to 64 characters and refuses lengths outside 43-128', () => {
    expect(PkceChallenge.generate().verifier).toHaveLength(64)
    expect(() => PkceChallenge.generate(42)).toThrow(/43 to 128/)
    expect(() => PkceChallenge.generate(129)).toThrow(/43 to 128/)
  })
})
