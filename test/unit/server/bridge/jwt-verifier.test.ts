import {generateKeyPair, SignJWT} from 'jose'
import {describe, expect, it} from 'vitest'

import {createJwtVerifier} from '../../../../src/server/bridge/jwt.js'
import {unsignedToken} from '../../../helpers/jwks-issuer.js'

const SECRET = new TextEncoder().encode('a-shared-secret-of-at-least-32-bytes!')

function hs(claims: Record<string, unknown>, alg = 'HS256', key: Uint8Array = SECRET): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({aud: 'dev', exp: now + 60, iss: 'iam', ...claims}).setProtectedHeader({alg}).sign(key)
}

// The shared-secret mode (--jwt-secret-file); the JWKS mode runs end to end in test/e2e/bridge.test.ts.
describe('createJwtVerifier with a secret', () => {
  it('accepts an HS256 token with the owner, within the clock tolerance', async () => {
    const verify = await createJwtVerifier({audience: 'dev', issuer: 'iam', keys: {secret: SECRET}})
    const now = Math.floor(Date.now() / 1000)
    expect(await verify(await hs({exp: now + 60, owner: 'acme'}))).toEqual({
      expiresAt: (now + 90) * 1000,
      ok: true,
      owner: 'acme',
    })
    expect(await verify(await hs({exp: now - 10, owner: 'acme'}))).toEqual({
      expiresAt: (now + 20) * 1000,
      ok: true,
      owner: 'acme',
    })
    expect(await verify(await hs({exp: now - 120, owner: 'acme'}))).toMatchObject({ok: false, status: 401})
  })

  it('refuses another secret, an asymmetric or unsigned token, and a missing owner', async () => {
    const verify = await createJwtVerifier({keys: {secret: SECRET}})
    const other = await verify(await hs({owner: 'acme'}, 'HS256', new TextEncoder().encode('x'.repeat(40))))
    expect(other).toEqual({ok: false, reason: 'the token signature does not verify', status: 401})
    const {privateKey} = await generateKeyPair('ES256')
    const es = await new SignJWT({exp: Math.floor(Date.now() / 1000) + 60, owner: 'acme'})
      .setProtectedHeader({alg: 'ES256'})
      .sign(privateKey)
    expect(await verify(es)).toMatchObject({ok: false, status: 401})
    expect(await verify(unsignedToken('acme'))).toEqual({
      ok: false,
      reason: 'the token algorithm is not allowed',
      status: 401,
    })
    expect(await verify(await hs({}))).toEqual({
      ok: false,
      reason: 'the token has no string "owner" claim',
      status: 401,
    })
  })

  it('says the JWKS is unreachable (503), not that the token is bad', async () => {
    const verify = await createJwtVerifier({keys: {jwks: new URL('http://127.0.0.1:9/jwks')}})
    const {privateKey} = await generateKeyPair('ES256')
    const es = await new SignJWT({exp: Math.floor(Date.now() / 1000) + 60, owner: 'acme'})
      .setProtectedHeader({alg: 'ES256'})
      .sign(privateKey)
    expect(await verify(es)).toMatchObject({ok: false, status: 503})
  })
})
