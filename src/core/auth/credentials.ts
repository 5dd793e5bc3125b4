import type {TokenAuthMethod} from './oauth-http.js'

/**
 * The token model (HIP-301 §12): what a provider login leaves behind, and the port every
 * credential backend (the 0600 file, the OS keychain) implements.
 */

export interface ApiKeyCredential {
  type: 'api_key'
  key: string
}

export interface OAuthCredential {
  type: 'oauth'
  accessToken: string
  refreshToken?: string
  /** When the access token stops working, in epoch ms; absent when the server did not say. */
  expiresAt?: number
  tokenType?: string
  scope?: string
  issuer?: string
  account?: string
  /** The client the grant belongs to: a refresh must come from the same client. Not a secret. */
  clientId?: string
  /** The secret a dynamic registration (RFC 7591) issued to `clientId`: renewals need it. Never shown. */
  clientSecret?: string
  /** How the registered client authenticates at the token endpoint, as its registration said. */
  tokenAuthMethod?: TokenAuthMethod
  /** The resource server the token was issued for (RFC 8707): it is sent nowhere else. */
  resource?: string
}

export type Credential = ApiKeyCredential | OAuthCredential

/** What may be shown about a stored credential: never a key or a token. */
export interface CredentialSummary {
  provider: string
  type: Credential['type']
  expiresAt?: number
  hasRefreshToken?: boolean
  scope?: string
  issuer?: string
  account?: string
}

/** The reads and writes allowed inside {@link CredentialStore.withLock}, which already holds the lock. */
export interface LockedCredentials {
  get(provider: string): Promise<Credential | undefined>
  store(provider: string, credential: Credential): Promise<void>
  /** Whether there was a credential to delete. */
  delete(provider: string): Promise<boolean>
}

export interface CredentialStore extends LockedCredentials {
  list(): Promise<CredentialSummary[]>
  /**
   * Runs `fn` while no other process (or call) holds the store: a refresh reads, rotates and
   * writes back as one step. `fn` gets the store's locked view, because the lock is not
   * re-entrant and the store's own `store`/`delete` take it.
   */
  withLock<T>(fn: (locked: LockedCredentials) => Promise<T>): Promise<T>
}

/**
 * Whether the credential should be refreshed before use. The skew covers clock drift and the
 * time the request spends in flight. API keys and tokens without an expiry never expire here:
 * the server will say so, and nothing could be done about it in advance.
 */
export function isExpired(credential: Credential, now: number, skewMs = 60_000): boolean {
  return credential.type === 'oauth' && credential.expiresAt !== undefined && credential.expiresAt - skewMs <= now
}

export function summarizeCredential(provider: string, credential: Credential): CredentialSummary {
  if (credential.type === 'api_key') return {provider, type: 'api_key'}
  const {account, expiresAt, issuer, refreshToken, scope} = credential
  return dropUndefined({
    account,
    expiresAt,
    hasRefreshToken: refreshToken !== undefined,
    issuer,
    provider,
    scope,
    type: 'oauth',
  })
}

const OAUTH_STRINGS = [
  'refreshToken',
  'tokenType',
  'scope',
  'issuer',
  'account',
  'clientId',
  'clientSecret',
  'resource',
] as const
const TOKEN_AUTH_METHODS: readonly string[] = ['client_secret_basic', 'client_secret_post', 'none']

/**
 * A stored value checked to be a credential, or the reason it is not. The reason names fields,
 * never their values: the value may be a secret.
 */
export function parseCredential(value: unknown): Credential | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object'
  const record = value as Record<string, unknown>
  if (record.type === 'api_key') {
    return nonEmptyString(record.key) ? {key: record.key, type: 'api_key'} : '"key" must be a non-empty string'
  }

  if (record.type !== 'oauth') return '"type" must be "api_key" or "oauth"'
  if (!nonEmptyString(record.accessToken)) return '"accessToken" must be a non-empty string'
  const credential: OAuthCredential = {accessToken: record.accessToken, type: 'oauth'}
  for (const field of OAUTH_STRINGS) {
    const fieldValue = record[field]
    if (fieldValue === undefined) continue
    if (typeof fieldValue !== 'string') return `"${field}" must be a string`
    credential[field] = fieldValue
  }

  if (record.tokenAuthMethod !== undefined) {
    if (typeof record.tokenAuthMethod !== 'string' || !TOKEN_AUTH_METHODS.includes(record.tokenAuthMethod))
      return `"tokenAuthMethod" must be one of ${TOKEN_AUTH_METHODS.join(', ')}`
    credential.tokenAuthMethod = record.tokenAuthMethod as TokenAuthMethod
  }

  if (record.expiresAt !== undefined) {
    if (typeof record.expiresAt !== 'number' || !Number.isFinite(record.expiresAt))
      return '"expiresAt" must be a number (epoch ms)'
    credential.expiresAt = record.expiresAt
  }

  return credential
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== ''
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T
}
