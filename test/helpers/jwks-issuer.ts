import {createServer} from 'node:http'
import {exportJWK, generateKeyPair, type JWTPayload, SignJWT} from 'jose'

export const ISSUER = 'https://iam.test.hanzo.ai'
export const AUDIENCE = 'hanzo-dev-bridge'

export interface JwksIssuer {
  /** The JWKS URL, served on 127.0.0.1. */
  url: string
  /** A token the bridge accepts for `owner` (ES256, the served key); `claims` override its claims. */
  token(owner: string | undefined, claims?: JWTPayload): Promise<string>
  /** The same claims signed by a key the JWKS does not serve, under the served key's kid. */
  foreignToken(owner: string): Promise<string>
  close(): Promise<void>
}

/** A stand-in for Hanzo IAM: a real JWKS endpoint on loopback and the key behind it. */
export async function startJwksIssuer(): Promise<JwksIssuer> {
  const kid = 'test-key-1'
  const served = await generateKeyPair('ES256')
  const foreign = await generateKeyPair('ES256')
  const jwks = JSON.stringify({keys: [{...(await exportJWK(served.publicKey)), alg: 'ES256', kid, use: 'sig'}]})
  const server = createServer((req, res) => {
    if (req.url === '/.well-known/jwks.json') res.writeHead(200, {'content-type': 'application/json'}).end(jwks)
    else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const {port} = server.address() as {port: number}

  // Claims set to undefined are left out (JSON drops them): `{exp: undefined}` makes a token without exp.
  const sign = (key: CryptoKey, owner: string | undefined, claims: JWTPayload = {}) => {
    const now = Math.floor(Date.now() / 1000)
    return new SignJWT({
      aud: AUDIENCE,
      exp: now + 600,
      iat: now,
      iss: ISSUER,
      ...(owner === undefined ? {} : {owner}),
      ...claims,
    })
      .setProtectedHeader({alg: 'ES256', kid})
      .sign(key)
  }

  return {
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    foreignToken: (owner) => sign(foreign.privateKey, owner),
    token: (owner, claims) => sign(served.privateKey, owner, claims),
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
  }
}

/** An unsecured JWT (`alg: none`, empty signature) with claims a bridge would otherwise accept. */
export function unsignedToken(owner: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const now = Math.floor(Date.now() / 1000)
  return `${part({alg: 'none', typ: 'JWT'})}.${part({aud: AUDIENCE, exp: now + 600, iat: now, iss: ISSUER, owner})}.`
}
