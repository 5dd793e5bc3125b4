import {homedir} from 'node:os'

import {
  configuredKey,
  DEFAULT_PROVIDER,
  type EndpointChoice,
  type ModelEndpoint,
  resolveEndpoint,
} from '../../core/agent/endpoint.js'
import {openCredentialStore} from '../credentials/open-store.js'
import type {Credential, CredentialStore} from '../../core/auth/credentials.js'
import {providerRefresher} from '../../core/auth/grant.js'
import type {FetchLike} from '../../core/auth/oauth-http.js'
import {AUTO_DETECT_ORDER, resolveAuthProvider} from '../../core/auth/providers.js'
import {validCredential} from '../../core/auth/refresh.js'
import type {HanzoConfig} from '../../core/config/types.js'
import {resolvePaths} from '../../core/paths.js'

/** What every `auth` command and a run's credential lookup share. */
export interface AuthContext {
  config: Partial<HanzoConfig>
  store: CredentialStore
  backend: 'file' | 'keychain'
  /** Where the file backend keeps credentials (also the fallback of the keychain). */
  credentialsPath: string
  fetch: FetchLike
  now: () => number
}

/** `config` is the merged settings: `credentials.store` there already includes HANZO_CREDENTIALS_STORE. */
export async function openAuthContext(
  config: Partial<HanzoConfig>,
  env: Readonly<Record<string, string | undefined>>,
  warn: (message: string) => void,
): Promise<AuthContext> {
  const credentialsPath = resolvePaths(env, homedir()).credentials
  const {backend, store} = await openCredentialStore({
    env,
    onWarning: warn,
    path: credentialsPath,
    platform: process.platform,
    setting: config.credentials?.store,
  })
  return {backend, config, credentialsPath, fetch: globalThis.fetch, now: Date.now, store}
}

/**
 * The provider's stored credential, renewed first when it has expired (under the store's lock,
 * so concurrent processes never spend one refresh token twice). `undefined` when none is stored.
 */
export async function freshCredential(context: AuthContext, provider: string): Promise<Credential | undefined> {
  const refresh = async (credential: Parameters<ReturnType<typeof providerRefresher>>[0]) =>
    providerRefresher(
      resolveAuthProvider(provider, context.config, credential.clientId),
      context.fetch,
      context.now,
    )(credential)
  return validCredential(context.store, provider, refresh, {now: context.now})
}

/** The secret a model request carries: the API key, or the OAuth access token. */
export function bearerOf(credential: Credential): string {
  return credential.type === 'api_key' ? credential.key : credential.accessToken
}

/**
 * Where a run's model requests go, with the credential they carry. With no provider named (no
 * `provider`, no base URL), the first of Hanzo, Anthropic, OpenAI with a key or a login is used
 * (HIP-301 §12); a key from the environment or the user settings wins over a stored login.
 */
export async function resolveRunEndpoint(
  config: HanzoConfig,
  env: Readonly<Record<string, string | undefined>>,
  flags: EndpointChoice,
  warn: (message: string) => void,
): Promise<ModelEndpoint> {
  const named = config.provider ?? (flags.baseURL || config.base_url ? DEFAULT_PROVIDER : undefined)
  if (named && configuredKey(config, env, named)) return resolveEndpoint(config, env, flags)
  const context = await openAuthContext(config, env, warn)
  const stored = new Set((await context.store.list()).map((summary) => summary.provider))
  const provider =
    named ?? AUTO_DETECT_ORDER.find((name) => configuredKey(config, env, name) || stored.has(name)) ?? DEFAULT_PROVIDER
  const credential = stored.has(provider) ? await freshCredential(context, provider) : undefined
  const endpoint = resolveEndpoint({...config, provider}, env, flags, credential && bearerOf(credential))
  const viaLogin = credential?.type === 'oauth' && endpoint.apiKey === credential.accessToken
  return viaLogin ? {...endpoint, authScheme: 'bearer'} : endpoint
}
