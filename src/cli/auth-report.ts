import {type Credential, type CredentialSummary, summarizeCredential} from '../core/auth/credentials.js'
import {ENV_BINDINGS} from '../core/config/env.js'
import type {AuthContext} from '../adapters/auth/auth-context.js'

/** What `auth login` and `auth status` report of a credential: never the key or a token. */
export interface CredentialReport {
  provider: string
  type: Credential['type']
  account?: string
  /** ISO 8601; absent when the server gave no expiry. */
  expiresAt?: string
  expired?: boolean
  renewable?: boolean
  issuer?: string
  backend: AuthContext['backend']
  storedIn: string
  /** A relative time for people ("in 59 minutes"); left out of --json. */
  expires?: string
}

export function describeCredential(
  provider: string,
  credential: Credential,
  context: Pick<AuthContext, 'backend' | 'credentialsPath' | 'now'>,
) {
  return describeSummary(summarizeCredential(provider, credential), context)
}

export function describeSummary(
  summary: CredentialSummary,
  context: Pick<AuthContext, 'backend' | 'credentialsPath' | 'now'>,
): CredentialReport {
  const report: CredentialReport = {
    backend: context.backend,
    provider: summary.provider,
    storedIn: context.backend === 'keychain' ? 'the OS keychain' : context.credentialsPath,
    type: summary.type,
  }
  if (summary.account) report.account = summary.account
  if (summary.issuer) report.issuer = summary.issuer
  if (summary.type === 'oauth') report.renewable = summary.hasRefreshToken === true
  if (summary.expiresAt !== undefined) {
    report.expiresAt = new Date(summary.expiresAt).toISOString()
    report.expired = summary.expiresAt <= context.now()
    report.expires = relative(summary.expiresAt - context.now())
  }

  return report
}

/** Where a configured API key comes from, named so the user can find it; never the key. */
export interface KeySource {
  provider: string
  /** The environment variable, or the setting (`api_key`, `providers.<name>.api_key`), holding the key. */
  source: string
  /** The settings file holding it, when a setting does. */
  file?: string
}

/**
 * `configuredKey`'s source made findable: `api_key` is HANZO_API_KEY when the environment set it
 * (the loader's `origins` say which), else the setting in the file that holds it.
 */
export function keySource(provider: string, source: string, origins: Readonly<Record<string, string>>): KeySource {
  const origin = origins[source]
  if (origin === undefined) return {provider, source}
  return ENV_BINDINGS.some((binding) => binding.variable === origin)
    ? {provider, source: origin}
    : {file: origin, provider, source}
}

/** "HANZO_API_KEY", or "api_key in /home/me/.config/hanzo/settings.json". */
export function describeKeySource(key: KeySource): string {
  return key.file ? `${key.source} in ${key.file}` : key.source
}

/** The report as --json prints it: the human-only fields dropped. */
export function jsonReport({expires: _expires, ...report}: CredentialReport): Omit<CredentialReport, 'expires'> {
  return report
}

function relative(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / 60_000)
  const span =
    minutes < 120
      ? `${minutes} minute${minutes === 1 ? '' : 's'}`
      : minutes < 48 * 60
        ? `${Math.round(minutes / 60)} hours`
        : `${Math.round(minutes / 1440)} days`
  return ms >= 0 ? `in ${span}` : `${span} ago`
}
