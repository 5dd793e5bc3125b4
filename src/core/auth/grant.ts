import type {OAuthCredential} from './credentials.js'
import {type AuthProvider, providerEndpoints} from './providers.js'
import {
  clientFields,
  credentialFromToken,
  type FetchLike,
  OAuthError,
  parseTokenResponse,
  postForm,
} from './oauth-http.js'
import type {Refresher} from './refresh.js'

/**
 * Renews a provider's login with its refresh token (RFC 6749 §6). An OAuth error keeps its
 * code, so `validCredential` can tell a revoked grant (`invalid_grant`) from a passing fault.
 */
export function providerRefresher(provider: AuthProvider, fetch: FetchLike, now: () => number): Refresher {
  return async (credential) => {
    const endpoints = await providerEndpoints(provider, undefined, fetch)
    const client = clientFields({
      clientId: provider.clientId!,
      clientSecret: provider.clientSecret,
      resource: credential.resource,
    })
    const form = {...client, grant_type: 'refresh_token', refresh_token: credential.refreshToken!}
    const answer = parseTokenResponse(await postForm(fetch, endpoints.token_endpoint, form), endpoints.token_endpoint)
    const renewed = credentialFromToken(answer, now(), {
      clientId: credential.clientId,
      issuer: credential.issuer,
      resource: credential.resource,
    })
    // A refresh answer rarely has an ID token: the account shown stays the one that logged in.
    return credential.account && !renewed.account ? {...renewed, account: credential.account} : renewed
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
    const form: Record<string, string> = {client_id: provider.clientId!, token, token_type_hint: hint}
    if (provider.clientSecret) form.client_secret = provider.clientSecret
    await postForm(fetch, endpoints.revocation_endpoint, form, signal).catch((error: unknown) => {
      // RFC 7009 §2.2: an unknown or already invalid token is revoked as far as the client cares.
      if (!(error instanceof OAuthError && error.error === 'invalid_token')) throw error
    })
    return {result: 'revoked'}
  } catch (error) {
    return {reason: error instanceof Error ? error.message : String(error), result: 'failed'}
  }
}
