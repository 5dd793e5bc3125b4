import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {PkceChallenge, ProtocolError} from '../../src/core/protocol/index.js'
import {REPO_ROOT} from '../helpers/cli.js'
import {thrownBy} from '../helpers/thrown.js'

interface Vector {
  name: string
  description: string
  verifier: string
  expect: {challenge?: string; error?: string}
}

const {cases} = JSON.parse(readFileSync(join(REPO_ROOT, 'test-vectors', 'oauth-pkce.json'), 'utf8')) as {
  cases: Vector[]
}

describe('oauth-pkce vectors (HIP-301 §6, RFC 7636)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, vector) => {
    if (vector.expect.error) {
      const error = thrownBy(() => PkceChallenge.fromVerifier(vector.verifier))
      expect(error).toBeInstanceOf(ProtocolError)
      expect((error as ProtocolError).code).toBe(vector.expect.error)
      // The verifier is a secret: an error never repeats it.
      if (vector.verifier.length > 3) expect((error as Error).message).not.toContain(vector.verifier)
      return
    }

    const pkce = PkceChallenge.fromVerifier(vector.verifier)
    expect(pkce).toMatchObject({challenge: vector.expect.challenge, method: 'S256', verifier: vector.verifier})
  })
})
