import {UserError} from '../errors.js'
import {type FetchLike, originOf, unreachable} from './oauth-http.js'

/** The authorization server metadata a login needs (RFC 8414 / OpenID Connect Discovery). */
export interface AuthServerMetadata {
  issuer: string
  authorization_endpoint?: string
  token_endpoint: string
  device_authorization_endpoint?: string
  revocation_endpoint?: string
  /** RFC 7591 dynamic client registration, for servers (MCP's) that expect clients to register themselves. */
  registration_endpoint?: string
  code_challenge_methods_supported?: string[]
  /** How clients may authenticate at the token endpoint; absent: the server did not say. */
  token_endpoint_auth_methods_supported?: string[]
  authorization_response_iss_parameter_supported?: boolean
}

const URL_FIELDS = [
  'authorization_endpoint',
  'token_endpoint',
  'device_authorization_endpoint',
  'revocation_endpoint',
  'registration_endpoint',
] as const

/**
 * Reads the server's metadata: RFC 8414's `/.well-known/oauth-authorization-server` (inserted
 * before the issuer's path), then OpenID Connect's `<issuer>/.well-known/openid-configuration`.
 * The document must name the same issuer (RFC 8414 §3.3): otherwise one server could hand out
 * another's endpoints. A 200 that is not JSON is a catch-all web app's page, not metadata: the
 * next place is tried.
 */
export async function discoverAuthServer(
  issuer: string,
  fetch: FetchLike,
  signal?: AbortSignal,
): Promise<AuthServerMetadata> {
  const base = new URL(issuer)
  const path = base.pathname.replace(/\/$/, '')
  const candidates = [
    `${base.origin}/.well-known/oauth-authorization-server${path}`,
    `${base.origin}${path}/.well-known/openid-configuration`,
  ]
  const statuses: string[] = []
  for (const url of candidates) {
    let response: Response
    try {
      response = await fetch(url, {headers: {accept: 'application/json'}, method: 'GET', signal})
    } catch (error) {
      throw unreachable(url, error, signal)
    }

    if (!response.ok) {
      statuses.push(`HTTP ${response.status}`)
      await response.body?.cancel()
      continue
    }

    let document: unknown
    try {
      document = JSON.parse(await response.text())
    } catch {
      statuses.push(`HTTP ${response.status} that is not JSON`)
      continue
    }

    return checkMetadata(document, issuer, url)
  }

  throw new UserError(
    `${issuer} publishes no OAuth metadata (${statuses.join(', ')} at ${candidates.map((u) => originOf(u)).join(' and ')})`,
    {
      hint: 'check the issuer URL, or set providers.<name>.oauth.authorize_url and token_url in your user settings',
    },
  )
}

/** Whether the server supports the PKCE method we use; the issue with `plain` is that it protects nothing. */
export function requireS256(metadata: AuthServerMetadata): void {
  if (!metadata.code_challenge_methods_supported?.includes('S256')) {
    throw new UserError(
      `${metadata.issuer} does not list S256 in code_challenge_methods_supported: refusing to log in without PKCE`,
      {
        hint: 'use the device flow (--device) if the server offers it, or ask the server owner to enable PKCE S256',
      },
    )
  }
}

function checkMetadata(value: unknown, issuer: string, url: string): AuthServerMetadata {
  const bad = (why: string) =>
    new UserError(`The OAuth metadata at ${originOf(url)} ${why}`, {hint: 'check the issuer URL'})
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('is not a JSON object')
  const record = value as Record<string, unknown>
  if (typeof record.issuer !== 'string' || !sameIssuer(record.issuer, issuer)) {
    throw bad(
      `names another issuer (${typeof record.issuer === 'string' ? originOf(record.issuer) : 'none'}) than ${issuer}`,
    )
  }

  if (typeof record.token_endpoint !== 'string') throw bad('has no token_endpoint')
  const metadata: AuthServerMetadata = {issuer: record.issuer, token_endpoint: record.token_endpoint}
  for (const field of URL_FIELDS) {
    const endpoint = record[field]
    if (endpoint === undefined) continue
    if (typeof endpoint !== 'string' || !isHttpUrl(endpoint)) throw bad(`has a ${field} that is not an http(s) URL`)
    metadata[field] = endpoint
  }

  for (const field of ['code_challenge_methods_supported', 'token_endpoint_auth_methods_supported'] as const) {
    const methods = record[field]
    if (Array.isArray(methods)) metadata[field] = methods.filter((m): m is string => typeof m === 'string')
  }

  if (record.authorization_response_iss_parameter_supported === true)
    metadata.authorization_response_iss_parameter_supported = true
  return metadata
}

export function isHttpUrl(value: string): boolean {
  try {
    const {protocol} = new URL(value)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}

/** Issuers compare as strings (RFC 8414 §3.3), but servers differ on a trailing slash. */
export function sameIssuer(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '')
}
