import type {IncomingHttpHeaders} from 'node:http'

/** Where a bridge gets the keys that sign its JWTs: a JWKS URL (Hanzo IAM) or a shared HS256 secret. */
export type JwtKeys = {jwks: URL} | {secret: Uint8Array}

export interface JwtCheckOptions {
  keys: JwtKeys
  issuer?: string
  audience?: string
  /** Seconds of clock skew allowed on exp/nbf/iat. */
  clockTolerance?: number
}

/**
 * A verified token's owner and when it stops being valid (its `exp` plus the clock tolerance, in
 * ms since the epoch), or why the upgrade is refused (never the token itself).
 */
export type JwtVerdict = {ok: true; owner: string; expiresAt: number} | {ok: false; status: 401 | 503; reason: string}

/** Asymmetric algorithms only with a JWKS: an HS* token "signed" with a public key is the classic confusion attack. */
const JWKS_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const
const SECRET_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const
/** Far above any real IAM token, far below a header a server should parse. */
const MAX_TOKEN_LENGTH = 8192
const MAX_OWNER_LENGTH = 256
/** The owner travels in an HTTP header: printable ASCII only, so no two owners can encode alike. */
const OWNER_PATTERN = /^[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?$/
const CLAIM_REASONS: Record<string, string> = {
  ERR_JWS_INVALID: 'the token is malformed',
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'the token signature does not verify',
  ERR_JWT_EXPIRED: 'the token has expired',
  ERR_JWT_INVALID: 'the token is malformed',
  ERR_JOSE_ALG_NOT_ALLOWED: 'the token algorithm is not allowed',
  ERR_JOSE_NOT_SUPPORTED: 'the token algorithm is not supported',
  ERR_JWKS_NO_MATCHING_KEY: 'no key of the JWKS matches the token',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'more than one key of the JWKS matches the token',
}

/** The subprotocol a browser offers before its token (`new WebSocket(url, ['bearer', jwt])`); the bridge answers with it. */
export const BEARER_PROTOCOL = 'bearer'

/**
 * The token of an upgrade request: `Authorization: Bearer JWT`, or (browsers cannot set headers)
 * the subprotocol after `bearer` in Sec-WebSocket-Protocol. Both given and different: refused,
 * so no proxy in between can make one token stand for another.
 */
export function upgradeToken(headers: IncomingHttpHeaders): {token?: string; error?: string} {
  let fromHeader: string | undefined
  if (headers.authorization !== undefined) {
    const match = /^Bearer +(\S+)\s*$/i.exec(headers.authorization)
    if (!match) return {error: 'the Authorization header is not "Bearer <JWT>"'}
    fromHeader = match[1]
  }

  const offered = (headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim())
  const at = offered.indexOf(BEARER_PROTOCOL)
  const fromProtocol = at === -1 ? undefined : offered[at + 1]
  if (at !== -1 && !fromProtocol) return {error: 'the "bearer" subprotocol is not followed by a token'}
  if (fromHeader !== undefined && fromProtocol !== undefined && fromHeader !== fromProtocol)
    return {error: 'the Authorization header and the subprotocol carry different tokens'}
  const token = fromHeader ?? fromProtocol
  if (token === undefined)
    return {error: 'no token: send Authorization: Bearer <JWT>, or the subprotocols ["bearer", <JWT>]'}
  if (token.length > MAX_TOKEN_LENGTH) return {error: `the token is over ${MAX_TOKEN_LENGTH} characters`}
  return {token}
}

/**
 * A verifier of Hanzo IAM JWTs (jose, imported here, on first use): the signature with the
 * configured keys and algorithms (never `none`), `exp` required, nbf/iss/aud checked with a small
 * clock tolerance, and a string `owner` claim required. Reasons never quote the token.
 */
export async function createJwtVerifier(options: JwtCheckOptions): Promise<(token: string) => Promise<JwtVerdict>> {
  const {createRemoteJWKSet, errors, jwtVerify} = await import('jose')
  const key =
    'jwks' in options.keys ? createRemoteJWKSet(options.keys.jwks, {timeoutDuration: 5000}) : options.keys.secret
  const algorithms = 'jwks' in options.keys ? [...JWKS_ALGORITHMS] : [...SECRET_ALGORITHMS]
  const clockTolerance = options.clockTolerance ?? 30
  const verifyOptions = {
    algorithms,
    audience: options.audience,
    clockTolerance,
    issuer: options.issuer,
    requiredClaims: ['exp'],
  }
  return async (token) => {
    let payload: Record<string, unknown>
    try {
      // Two overloads (key or key set) that TypeScript cannot pick from a union.
      payload = (await jwtVerify(token, key as Uint8Array, verifyOptions)).payload
    } catch (error) {
      if (error instanceof errors.JWTClaimValidationFailed)
        return {ok: false, reason: `the token's "${error.claim}" claim is not accepted (${error.reason})`, status: 401}
      if (
        error instanceof errors.JWKSTimeout ||
        error instanceof errors.JWKSInvalid ||
        !(error instanceof errors.JOSEError)
      ) {
        return {
          ok: false,
          reason: `the JWKS ${'jwks' in options.keys ? options.keys.jwks.href : ''} could not be read, so no token can be verified now`,
          status: 503,
        }
      }

      return {ok: false, reason: CLAIM_REASONS[error.code] ?? `the token does not verify (${error.code})`, status: 401}
    }

    const {owner} = payload
    if (typeof owner !== 'string' || owner.length === 0)
      return {ok: false, reason: 'the token has no string "owner" claim', status: 401}
    if (owner.length > MAX_OWNER_LENGTH || !OWNER_PATTERN.test(owner))
      return {
        ok: false,
        reason: 'the token\'s "owner" claim is not printable ASCII (at most 256 characters)',
        status: 401,
      }
    return {expiresAt: ((payload.exp as number) + clockTolerance) * 1000, ok: true, owner}
  }
}
