import {UserError} from '../errors.js'
import {type Credential, type CredentialStore, isExpired, type OAuthCredential} from './credentials.js'
import {withoutSecrets} from './oauth-http.js'

/**
 * Trades an expired credential for a fresh one (an OAuth refresh-token grant). An OAuth error
 * response is reported as an error whose `code` (or `error`) is the OAuth error code.
 */
export type Refresher = (credential: OAuthCredential) => Promise<Credential>

export interface ValidCredentialOptions {
  /** The clock, in epoch ms. */
  now: () => number
  skewMs?: number
}

/**
 * The provider's credential, refreshed first when it has expired; `undefined` when there is none.
 *
 * Refresh tokens rotate: a second use of one revokes the whole grant at most servers. So two
 * processes that find the same expired token must not both refresh it. The refresh runs under
 * the store's lock, re-reads the store there (another process may have refreshed meanwhile),
 * and writes the rotated credential before the lock is released.
 */
export async function validCredential(
  store: CredentialStore,
  provider: string,
  refresh: Refresher,
  options: ValidCredentialOptions,
): Promise<Credential | undefined> {
  const current = await store.get(provider)
  if (current === undefined || !isExpired(current, options.now(), options.skewMs)) return current
  return store.withLock(async (locked) => {
    const latest = await locked.get(provider)
    if (latest === undefined || latest.type !== 'oauth' || !isExpired(latest, options.now(), options.skewMs))
      return latest
    if (latest.refreshToken === undefined) {
      throw new UserError(`The ${provider} login has expired and cannot be renewed`, {hint: loginHint(provider)})
    }

    const rotated = keepRefreshToken(await refreshOrExplain(refresh, latest, provider), latest.refreshToken)
    await locked.store(provider, rotated)
    return rotated
  })
}

/** A server that does not rotate refresh tokens leaves them out of the response: the old one stays good (RFC 6749 §6). */
function keepRefreshToken(credential: Credential, refreshToken: string): Credential {
  return credential.type === 'oauth' && credential.refreshToken === undefined
    ? {...credential, refreshToken}
    : credential
}

async function refreshOrExplain(
  refresh: Refresher,
  credential: OAuthCredential,
  provider: string,
): Promise<Credential> {
  try {
    return await refresh(credential)
  } catch (error) {
    if (oauthErrorCode(error) === 'invalid_grant') {
      throw new UserError(`The ${provider} login was revoked, or its refresh token was already used`, {
        hint: loginHint(provider),
      })
    }

    // The refresher's message may quote the request (tokens and all), and so may its cause: keep
    // neither, only the message with this credential's secrets cut out.
    const message = error instanceof Error ? error.message : String(error)
    throw new UserError(
      `Could not renew the ${provider} login: ${withoutSecrets(message, [credential.accessToken, credential.refreshToken])}`,
      {
        hint: `try again, or ${loginHint(provider)}`,
      },
    )
  }
}

function oauthErrorCode(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return undefined
  const {code, error: oauthError} = error as {code?: unknown; error?: unknown}
  return oauthError ?? code
}

function loginHint(provider: string): string {
  return `run hanzo-dev auth login --provider ${provider}`
}
