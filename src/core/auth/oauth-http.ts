import {redactSecrets} from '../config/redact.js'
import {UserError} from '../errors.js'
import type {OAuthCredential} from './credentials.js'

/** The `fetch` the OAuth code uses; injected so the core holds no network globals. */
export type FetchLike = (
  url: string,
  init: {method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal},
) => Promise<Response>

/** A successful token endpoint answer (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string
  token_type: string
  expires_in?: number
  refresh_token?: string
  scope?: string
  id_token?: string
}

/**
 * An OAuth error answer (RFC 6749 §5.2): `error` is the code callers branch on
 * (`invalid_grant`, `authorization_pending`, ...). The description is the server's own words,
 * with every secret of the request cut out.
 */
export class OAuthError extends Error {
  readonly error: string
  readonly status: number

  constructor(error: string, description: string | undefined, status: number) {
    super(description ? `${error}: ${description}` : error)
    this.name = 'OAuthError'
    this.error = error
    this.status = status
  }
}

/** An answer that is neither a token nor an OAuth error: a 5xx page, HTML from a proxy. */
export class OAuthServerError extends Error {
  readonly status: number
  /** A 5xx or a body that is not JSON: the next try may work. A malformed token answer will not. */
  readonly retryable: boolean

  constructor(message: string, status: number, retryable = false) {
    super(message)
    this.name = 'OAuthServerError'
    this.status = status
    this.retryable = retryable
  }
}

/** How a client proves itself at the token endpoint (RFC 8414 `token_endpoint_auth_methods_supported`). */
export type TokenAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none'

export interface ClientAuth {
  clientId: string
  /** Confidential clients only; sent as `authMethod` says. */
  clientSecret?: string
  /** Where the secret goes: the body (the default) or HTTP Basic; {@link tokenAuthMethod} picks it. */
  authMethod?: TokenAuthMethod
  /**
   * RFC 8707: the resource server the tokens are for (an MCP server's URL), sent with every
   * request of the grant, so a token issued for one server is refused by every other.
   */
  resource?: string
}

/**
 * The method a client with `secret` uses: the one its registration named (RFC 7591's answer
 * wins), else what the server lists, Basic first (RFC 6749 §2.3.1: servers MUST take it). A
 * server that lists nothing gets the body, as before methods were read.
 */
export function tokenAuthMethod(
  secret: string | undefined,
  supported: string[] | undefined,
  registered?: string,
): TokenAuthMethod {
  if (!secret) return 'none'
  if (registered === 'client_secret_basic' || registered === 'client_secret_post' || registered === 'none')
    return registered
  if (!supported?.length) return 'client_secret_post'
  for (const method of ['client_secret_basic', 'client_secret_post', 'none'] as const)
    if (supported.includes(method)) return method
  return 'client_secret_post'
}

/** The fields that name the client (and its resource) in every form it posts; the secret only for `client_secret_post`. */
export function clientFields(client: ClientAuth): Record<string, string> {
  const fields: Record<string, string> = {client_id: client.clientId}
  if (client.clientSecret && (client.authMethod ?? 'client_secret_post') === 'client_secret_post')
    fields.client_secret = client.clientSecret
  if (client.resource) fields.resource = client.resource
  return fields
}

/** RFC 6749 §2.3.1: id and secret form-encoded, then Base64 in the Authorization header. */
function basicAuthorization(client: ClientAuth): Record<string, string> {
  if (client.authMethod !== 'client_secret_basic' || !client.clientSecret) return {}
  const encode = (value: string) => new URLSearchParams({v: value}).toString().slice(2)
  const pair = `${encode(client.clientId)}:${encode(client.clientSecret)}`
  return {authorization: `Basic ${Buffer.from(pair).toString('base64')}`}
}

/** The form fields that carry secrets: a server quoting them back must not show them. */
const SECRET_FIELDS = new Set(['client_secret', 'code', 'code_verifier', 'device_code', 'refresh_token', 'token'])

/**
 * POSTs a form to an OAuth endpoint and reads the JSON answer, as `client` when given (its
 * fields, and its secret where its method puts it). The form's secrets (codes, verifiers,
 * refresh tokens, the client's secret) never reach an error, even when the server quotes them back.
 */
export async function postForm(
  fetch: FetchLike,
  url: string,
  fields: Record<string, string>,
  signal?: AbortSignal,
  client?: ClientAuth,
): Promise<Record<string, unknown>> {
  const form = client ? {...fields, ...clientFields(client)} : fields
  let response: Response
  try {
    response = await fetch(url, {
      body: new URLSearchParams(form).toString(),
      headers: {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
        ...(client ? basicAuthorization(client) : {}),
      },
      method: 'POST',
      signal,
    })
  } catch (error) {
    throw unreachable(url, error, signal)
  }

  const text = await response.text()
  // Revocation answers 200 with no body (RFC 7009 §2.2).
  if (response.ok && text.trim() === '') return {}
  const body = parseJsonObject(text)
  const secrets = Object.entries(form).flatMap(([field, value]) => (SECRET_FIELDS.has(field) ? [value] : []))
  if (client?.clientSecret) secrets.push(client.clientSecret)
  const scrub = (value: string) => withoutSecrets(value, secrets)
  // A 5xx is the server failing, whatever its body says: worth a retry where one is safe.
  if (body && typeof body.error === 'string' && response.status < 500) {
    const description = typeof body.error_description === 'string' ? scrub(body.error_description) : undefined
    throw new OAuthError(scrub(body.error), description, response.status)
  }

  if (!response.ok || !body) {
    const what = !body
      ? `HTTP ${response.status} with a body that is not JSON`
      : typeof body.error === 'string'
        ? `HTTP ${response.status} (${scrub(body.error)})`
        : `HTTP ${response.status}`
    throw new OAuthServerError(`${originOf(url)} answered ${what}`, response.status, !body || response.status >= 500)
  }

  return body
}

/** Checks a token answer's shape; the message names the field, never its value. */
export function parseTokenResponse(body: Record<string, unknown>, url: string): TokenResponse {
  const fail = (why: string) => new OAuthServerError(`${originOf(url)} sent a token response without ${why}`, 200)
  if (typeof body.access_token !== 'string' || body.access_token === '') throw fail('an access_token')
  const response: TokenResponse = {
    access_token: body.access_token,
    token_type: typeof body.token_type === 'string' ? body.token_type : 'Bearer',
  }
  if (typeof body.expires_in === 'number' && Number.isFinite(body.expires_in)) response.expires_in = body.expires_in
  else if (typeof body.expires_in === 'string' && /^\d+$/.test(body.expires_in))
    response.expires_in = Number(body.expires_in)
  for (const field of ['refresh_token', 'scope', 'id_token'] as const) {
    if (typeof body[field] === 'string') response[field] = body[field]
  }

  return response
}

export async function requestToken(
  fetch: FetchLike,
  tokenUrl: string,
  client: ClientAuth,
  grant: Record<string, string>,
  signal?: AbortSignal,
): Promise<TokenResponse> {
  return parseTokenResponse(await postForm(fetch, tokenUrl, grant, signal, client), tokenUrl)
}

/** What a login keeps of a token answer. The account is read, unverified, from the ID token: for display only. */
export function credentialFromToken(
  token: TokenResponse,
  now: number,
  origin: {issuer?: string; clientId?: string; resource?: string} = {},
): OAuthCredential {
  const {clientId, issuer, resource} = origin
  const credential: OAuthCredential = {accessToken: token.access_token, tokenType: token.token_type, type: 'oauth'}
  if (clientId) credential.clientId = clientId
  if (resource) credential.resource = resource
  if (token.refresh_token) credential.refreshToken = token.refresh_token
  if (token.expires_in !== undefined) credential.expiresAt = now + token.expires_in * 1000
  if (token.scope) credential.scope = token.scope
  if (issuer) credential.issuer = issuer
  const account = token.id_token ? accountOf(token.id_token) : undefined
  if (account) credential.account = account
  return credential
}

function accountOf(idToken: string): string | undefined {
  try {
    const claims = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >
    const account = claims.email ?? claims.preferred_username ?? claims.sub
    return typeof account === 'string' && account !== '' ? stripControl(account) : undefined
  } catch {
    return undefined
  }
}

/** Control characters out of server-chosen text before it reaches a terminal (escape sequences). */
export function stripControl(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001F\u007F-\u009F]/g, '')
}

export function originOf(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.origin}${parsed.pathname}`
  } catch {
    return 'the authorization server'
  }
}

/** A failed connection as one line naming the server; an abort passes through unchanged. */
export function unreachable(url: string, error: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason ?? error
  const cause = (error as {cause?: {code?: string; message?: string}}).cause
  // A system code (ECONNREFUSED, ENOTFOUND) says it best; undici's own codes less than its words.
  const systemCode = cause?.code && !cause.code.startsWith('UND_ERR') ? cause.code : undefined
  const why = systemCode ?? cause?.message ?? (error instanceof Error ? error.message : String(error))
  return new UserError(`Cannot reach ${originOf(url)} (${why})`, {
    hint: 'check the network and the issuer URL (providers.<name>.oauth.issuer)',
  })
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/** `text` safe to show: control characters out, every one of `secrets` replaced by a marker (`redactSecrets`). */
export function withoutSecrets(text: string, secrets: Array<string | undefined>): string {
  return redactSecrets(stripControl(text), secrets)
}
