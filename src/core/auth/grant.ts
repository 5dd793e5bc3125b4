import type {OAuthCredential} from './credentials.js'
import {type AuthProvider, providerEndpoints} from './providers.js'
import type {AuthServerMetadata} from './discovery.js'
import {
  type ClientAuth,
  credentialFromToken,
  type FetchLike,
  OAuthError,
  parseTokenResponse,
  postForm,
  tokenAuthMethod,
} from './oauth-http.js'
import type {Refresher} from './refresh.js'

/**
 * Renews a provider's login with its refresh token (RFC 6749 §6). An OAuth error keeps its
 * code, so `validCredential` can tell a revoked grant (`invalid_grant`) from a passing fault.
 */
export function providerRefresher(provider: AuthProvider, fetch: FetchLike, now: () => number): Refresher {
  return async (credential) => {
    const endpoints = await providerEndpoints(provider, undefined, fetch)
    const client = providerClient(provider, endpoints, credential)
    const form = {grant_type: 'refresh_token', refresh_token: credential.refreshToken!}
    const answer = parseTokenResponse(
      await postForm(fetch, endpoints.token_endpoint, form, undefined, {...client, resource: credential.resource}),
      endpoints.token_endpoint,
    )
    const renewed = credentialFromToken(answer, now(), {
      ...registrationOf(credential),
      issuer: credential.issuer,
      resource: credential.resource,
    })
    // A refresh answer rarely has an ID token: the account shown stays the one that logged in.
    return credential.account && !renewed.account ? {...renewed, account: credential.account} : renewed
  }
}

/**
 * The client a grant's later requests come from: the configured secret, else the one a
 * registration issued (kept with the credential), sent as the registration or the server says.
 */
function providerClient(
  provider: AuthProvider,
  endpoints: AuthServerMetadata,
  credential: OAuthCredential,
): ClientAuth {
  const clientSecret = provider.clientSecret ?? credential.clientSecret
  const authMethod = tokenAuthMethod(
    clientSecret,
    endpoints.token_endpoint_auth_methods_supported,
    credential.tokenAuthMethod,
  )
  return {authMethod, clientId: provider.clientId!, ...(clientSecret ? {clientSecret} : {})}
}

/** What of a registered client a renewed credential keeps. */
function registrationOf(
  credential: OAuthCredential,
): Pick<OAuthCredential, 'clientId' | 'clientSecret' | 'tokenAuthMethod'> {
  const {clientId, clientSecret, tokenAuthMethod: method} = credential
  return {
    ...(clientId ? {clientId} : {}),
    ...(clientSecret ? {clientSecret} : {}),
    ...(method ? {tokenAuthMethod: method} : {}),
  }
}

export type RevocationResult = 'revoked' | 'unsupported' | 'failed'

/**
 * Revokes the grant at the server when it offers revocation (RFC 7009): the refresh token when
 * there is one (that ends the whole grant at most servers), else the access token. Logging out
 * must not fail because the server is down, so this reports rather than throws.
 */
export async function revokeCredential(
  provider: AuthProvider,
  credential: OAuthCredential,
  fetch: FetchLike,
  signal?: AbortSignal,
): Promise<{result: RevocationResult; reason?: string}> {
  // Nothing says where to revoke: neither an issuer to ask nor a configured endpoint.
  if (!provider.clientId || (!provider.issuer && !provider.revocationUrl)) return {result: 'unsupported'}
  try {
    const endpoints = await providerEndpoints(provider, undefined, fetch, signal)
    if (!endpoints.revocation_endpoint) return {result: 'unsupported'}
    const [token, hint] = credential.refreshToken
      ? [credential.refreshToken, 'refresh_token']
      : [credential.accessToken, 'access_token']
    const form = {token, token_type_hint: hint}
    const client = providerClient(provider, endpoints, credential)
    await postForm(fetch, endpoints.revocation_endpoint, form, signal, client).catch((error: unknown) => {
      // RFC 7009 §2.2: an unknown or already invalid token is revoked as far as the client cares.
      if (!(error instanceof OAuthError && error.error === 'invalid_token')) throw error
    })
    return {result: 'revoked'}
  } catch (error) {
    return {reason: error instanceof Error ? error.message : String(error), result: 'failed'}
  }
}
