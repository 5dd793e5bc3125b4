import type {ResourceLogin} from '@hanzo-dev/sdk'
import {printable} from '@hanzo-dev/sdk/terminal-text'

import {type AuthContext, openAuthContext} from '../adapters/auth/auth-context.js'
import {type AuthServerMetadata, discoverAuthServer} from '../core/auth/discovery.js'
import {providerRefresher, revokeCredential} from '../core/auth/grant.js'
import {type FetchLike, tokenAuthMethod} from '../core/auth/oauth-http.js'
import type {AuthProvider} from '../core/auth/providers.js'
import {validCredential} from '../core/auth/refresh.js'
import type {HanzoConfig} from '../core/config/types.js'
import {UserError} from '../core/errors.js'
import {loginWithOAuth} from './auth-login.js'
import {describeCredential} from './auth-report.js'
import {interruptSignal, withSpinner} from './auth-terminal.js'

/*
 * Logins to resource servers other than model providers: an MCP server's OAuth (MCP's
 * authorization spec). Each has its own credential-store key and RFC 8707 `resource`, so a
 * token is only ever sent to the server it was issued for.
 */

/** A public native client, the kind RFC 8252 describes: any loopback port matches its redirect URI. */
const REGISTERED_REDIRECT = 'http://127.0.0.1/callback'

/** The browser (PKCE) or `device` login of `login`, registering a client first when none is configured (RFC 7591). */
export async function loginToResource(
  login: ResourceLogin,
  options: {device: boolean; browser: boolean},
): Promise<{account?: string; expires?: string; storedIn: string}> {
  // An MCP server's authorization server chose much of what is said here: through the printer.
  const warn = (message: string) => process.stderr.write(`Warning: ${printable(message)}\n`)
  const context = await openAuthContext(login.settings as Partial<HanzoConfig>, login.env, warn)
  const {release, signal} = interruptSignal('Login')
  try {
    const metadata = await serverMetadata(context.fetch, login, signal)
    const registered = login.clientId
      ? undefined
      : await withSpinner(
          `Registering hanzo-dev with ${login.issuer}`,
          registerClient(context.fetch, login, metadata, signal),
        )
    const provider: AuthProvider = registered
      ? {...providerOf(login, metadata), ...registered, redirectUri: REGISTERED_REDIRECT}
      : {...providerOf(login, metadata), clientId: login.clientId}
    const credential = await loginWithOAuth(context, provider, options, {
      input: process.stdin,
      say: (message) => process.stderr.write(`${printable(message)}\n`),
      signal,
      waiting: withSpinner,
      warn,
    })
    const report = describeCredential(login.key, credential, context)
    return {
      storedIn: report.storedIn,
      ...(report.account ? {account: report.account} : {}),
      ...(report.expires ? {expires: report.expires} : {}),
    }
  } finally {
    release()
  }
}

/**
 * The access token stored for `key` and the resource it was issued for (the caller checks it
 * covers where the token goes), renewed first when it has expired; undefined when there is none
 * or it cannot be renewed (the user must log in again).
 */
export async function resourceAccessToken(
  login: Pick<ResourceLogin, 'key' | 'settings' | 'env' | 'clientSecret'>,
): Promise<{accessToken: string; resource?: string} | undefined> {
  const context = await openAuthContext(login.settings as Partial<HanzoConfig>, login.env, () => {})
  const stored = await context.store.get(login.key)
  if (stored?.type !== 'oauth') return undefined
  const refresh = providerRefresher(
    {...storedProvider(login.key, stored), clientSecret: login.clientSecret},
    context.fetch,
    context.now,
  )
  const credential = await validCredential(context.store, login.key, refresh, {now: context.now}).catch(() => undefined)
  return credential?.type === 'oauth'
    ? {accessToken: credential.accessToken, ...(credential.resource ? {resource: credential.resource} : {})}
    : undefined
}

/** Revokes (best effort) and deletes the login under `key`; false when there was none. */
export async function logoutResource(
  login: Pick<ResourceLogin, 'key' | 'settings' | 'env' | 'clientSecret'>,
): Promise<{removed: boolean; revocation?: string}> {
  const context: AuthContext = await openAuthContext(login.settings as Partial<HanzoConfig>, login.env, () => {})
  const stored = await context.store.get(login.key)
  if (!stored) return {removed: false}
  const revocation =
    stored.type === 'oauth'
      ? await revokeCredential(
          {...storedProvider(login.key, stored), clientSecret: login.clientSecret},
          stored,
          context.fetch,
        )
      : undefined
  await context.store.delete(login.key)
  return {removed: true, ...(revocation ? {revocation: revocation.result} : {})}
}

/** The login's provider; a 2025-03-26 server without metadata gets the spec's default endpoints. */
function providerOf(login: ResourceLogin, metadata: AuthServerMetadata | undefined): AuthProvider {
  const origin = new URL(login.issuer).origin
  return {
    clientSecret: login.clientSecret,
    flow: 'pkce',
    issuer: login.issuer,
    name: login.key,
    resource: login.resource,
    scopes: login.scopes,
    ...(metadata ? {} : {authorizeUrl: `${origin}/authorize`, tokenUrl: `${origin}/token`}),
  }
}

/** The authorization server's metadata; none (undefined) only where the 2025-03-26 defaults apply. */
async function serverMetadata(
  fetch: FetchLike,
  login: ResourceLogin,
  signal: AbortSignal,
): Promise<AuthServerMetadata | undefined> {
  return discoverAuthServer(login.issuer, fetch, signal).catch((error: unknown) => {
    if (login.defaultEndpoints && error instanceof UserError && /publishes no OAuth metadata/.test(error.message))
      return undefined
    throw error
  })
}

function storedProvider(key: string, credential: {issuer?: string; clientId?: string}): AuthProvider {
  return {clientId: credential.clientId, flow: 'pkce', issuer: credential.issuer, name: key, scopes: []}
}

/** RFC 7591: the client id, and the secret and authentication method when the server issues them. */
async function registerClient(
  fetch: FetchLike,
  login: ResourceLogin,
  metadata: AuthServerMetadata | undefined,
  signal: AbortSignal,
): Promise<Pick<AuthProvider, 'clientId' | 'clientSecret' | 'registeredAuthMethod'>> {
  const hint = `register a client at ${login.issuer} and set its id in the server's settings (oauth.client_id)`
  const endpoint = metadata ? metadata.registration_endpoint : `${new URL(login.issuer).origin}/register`
  if (!endpoint) throw new UserError(`${login.issuer} does not let clients register themselves`, {hint})
  const response = await fetch(endpoint, {
    body: JSON.stringify({
      application_type: 'native',
      client_name: 'hanzo-dev',
      grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
      redirect_uris: [REGISTERED_REDIRECT],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
    headers: {accept: 'application/json', 'content-type': 'application/json'},
    method: 'POST',
    signal,
  })
  const body = (await response.json().catch(() => ({}))) as {
    client_id?: unknown
    client_secret?: unknown
    token_endpoint_auth_method?: unknown
    error?: unknown
    error_description?: unknown
  }
  if (!response.ok || typeof body.client_id !== 'string') {
    const why =
      typeof body.error_description === 'string'
        ? body.error_description
        : typeof body.error === 'string'
          ? body.error
          : `HTTP ${response.status}`
    throw new UserError(`${login.issuer} refused to register hanzo-dev as a client (${why})`, {hint})
  }

  const clientSecret =
    typeof body.client_secret === 'string' && body.client_secret !== '' ? body.client_secret : undefined
  // A server that issues a secret without naming a method means Basic (RFC 7591 §2's default).
  const method = typeof body.token_endpoint_auth_method === 'string' ? body.token_endpoint_auth_method : undefined
  return {
    clientId: body.client_id,
    registeredAuthMethod: tokenAuthMethod(
      clientSecret,
      undefined,
      method ?? (clientSecret ? 'client_secret_basic' : 'none'),
    ),
    ...(clientSecret ? {clientSecret} : {}),
  }
}
