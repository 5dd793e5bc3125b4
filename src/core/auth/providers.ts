import type {HanzoConfig, ProviderOAuthSettings} from '../config/types.js'
import {UserError} from '../errors.js'
import {type AuthServerMetadata, discoverAuthServer, isHttpUrl, requireS256, sameIssuer} from './discovery.js'
import type {FetchLike, TokenAuthMethod} from './oauth-http.js'

export type LoginFlow = 'pkce' | 'device'

/** How to log in to one provider (HIP-301 §12). Unknown values stay unset: never guessed. */
export interface AuthProvider {
  /** The key its credential is stored under. */
  name: string
  issuer?: string
  clientId?: string
  clientSecret?: string
  authorizeUrl?: string
  tokenUrl?: string
  deviceAuthorizationUrl?: string
  revocationUrl?: string
  /** A fixed redirect URI some servers require; otherwise http://127.0.0.1:<random port>/callback. */
  redirectUri?: string
  scopes: string[]
  flow: LoginFlow
  /** RFC 8707: the one resource server (an MCP server's URL) the tokens are for. */
  resource?: string
  /**
   * Set when this login registered the client (RFC 7591): how the registration says it
   * authenticates. Its `clientSecret` is then kept with the credential, as no setting holds it.
   */
  registeredAuthMethod?: TokenAuthMethod
}

/**
 * The built-in table. Only what could be confirmed is filled in: Hanzo's issuer and the client
 * Hanzo's own CLI registers (with its fixed loopback port). Anthropic and OpenAI publish no
 * OAuth client for third-party tools, so their logins need `providers.<name>.oauth` in the user
 * settings; `--with-api-key` works for every provider.
 */
export const AUTH_PROVIDERS: Readonly<Record<string, Omit<AuthProvider, 'name'>>> = {
  anthropic: {flow: 'pkce', scopes: []},
  hanzo: {
    clientId: 'app-hanzo',
    flow: 'pkce',
    issuer: 'https://hanzo.id',
    redirectUri: 'http://localhost:1456/callback',
    scopes: ['openid', 'profile', 'email'],
  },
  openai: {flow: 'device', scopes: []},
}

/** The order credentials are looked for when no provider is named (HIP-301 §12). */
export const AUTO_DETECT_ORDER = ['hanzo', 'anthropic', 'openai'] as const

/** The providers `auth login` can offer: the built-in table and every provider with `oauth` settings. */
export function loginProviders(config: Partial<HanzoConfig>): string[] {
  const configured = Object.entries(config.providers ?? {})
    .filter(([, settings]) => settings.oauth !== undefined)
    .map(([name]) => name)
  return [...new Set([...Object.keys(AUTH_PROVIDERS), ...configured])]
}

/** One way to log in that works as the settings are: a provider's OAuth login, or its API key. */
export interface LoginChoice {
  provider: string
  method: 'oauth' | 'api_key'
}

/**
 * What `auth login` offers when no provider is named: first the logins that work as the settings
 * are (Hanzo's, and any provider whose OAuth settings are complete), then an API key for each
 * model provider. A provider whose OAuth client is unknown is offered by its key alone, never as
 * a login that could only fail.
 */
export function loginChoices(config: Partial<HanzoConfig>): LoginChoice[] {
  const logins = loginProviders(config).filter((name) => {
    const provider = resolveAuthProvider(name, config)
    // What providerEndpoints needs before it can even ask the server.
    return provider.clientId !== undefined && (provider.issuer !== undefined || provider.tokenUrl !== undefined)
  })
  const ordered = [
    ...AUTO_DETECT_ORDER.filter((name) => logins.includes(name)),
    ...logins.filter((name) => !AUTO_DETECT_ORDER.includes(name as never)),
  ]
  return [
    ...ordered.map((provider) => ({method: 'oauth' as const, provider})),
    ...AUTO_DETECT_ORDER.map((provider) => ({method: 'api_key' as const, provider})),
  ]
}

/**
 * The login of `nameOrIssuer`: a built-in or configured provider, with the user tier's
 * `providers.<name>.oauth` over the table; or an issuer URL, matched to the provider whose
 * `oauth.issuer` it is, else a provider of its own stored under the URL.
 */
export function resolveAuthProvider(
  nameOrIssuer: string,
  config: Partial<HanzoConfig>,
  clientId?: string,
): AuthProvider {
  const name = storedProviderName(nameOrIssuer, config)
  const issuer = isHttpUrl(nameOrIssuer) ? nameOrIssuer : undefined

  const builtin = AUTH_PROVIDERS[name]
  const settings: ProviderOAuthSettings = config.providers?.[name]?.oauth ?? {}
  if (!builtin && !issuer && config.providers?.[name]?.oauth === undefined) {
    throw new UserError(`Unknown provider "${nameOrIssuer}"`, {
      hint: `use one of ${loginProviders(config).join(', ')}, an issuer URL, or define providers.${nameOrIssuer}.oauth in your user settings`,
    })
  }

  const provider: AuthProvider = {
    flow: settings.flow ?? builtin?.flow ?? 'pkce',
    name,
    scopes: settings.scopes ?? builtin?.scopes ?? ['openid', 'offline_access'],
  }
  const fields = {
    authorizeUrl: settings.authorize_url ?? builtin?.authorizeUrl,
    clientId: clientId ?? settings.client_id ?? builtin?.clientId,
    clientSecret: settings.client_secret,
    deviceAuthorizationUrl: settings.device_authorization_url ?? builtin?.deviceAuthorizationUrl,
    issuer: settings.issuer ?? issuer ?? builtin?.issuer,
    redirectUri: settings.redirect_uri ?? builtin?.redirectUri,
    revocationUrl: settings.revocation_url ?? builtin?.revocationUrl,
    tokenUrl: settings.token_url ?? builtin?.tokenUrl,
  }
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) Object.assign(provider, {[key]: value})
  return provider
}

/** The key the credential of `nameOrIssuer` is stored under (an issuer URL maps to the provider naming it). */
export function storedProviderName(nameOrIssuer: string, config: Partial<HanzoConfig>): string {
  if (!isHttpUrl(nameOrIssuer)) return nameOrIssuer
  const match = Object.entries(config.providers ?? {}).find(
    ([, p]) => p.oauth?.issuer && sameIssuer(p.oauth.issuer, nameOrIssuer),
  )
  return match?.[0] ?? nameOrIssuer.replace(/\/+$/, '')
}

/**
 * The endpoints of `provider`: the configured ones, the rest from the issuer's discovery
 * document. Without an issuer or the endpoints the flow needs, the error says what to set.
 * With no flow (refresh, revocation) only the token endpoint is required.
 */
export async function providerEndpoints(
  provider: AuthProvider,
  flow: LoginFlow | undefined,
  fetch: FetchLike,
  signal?: AbortSignal,
): Promise<AuthServerMetadata> {
  const flowUrl =
    flow === 'pkce'
      ? provider.authorizeUrl
      : flow === 'device'
        ? provider.deviceAuthorizationUrl
        : provider.revocationUrl
  const complete = provider.tokenUrl !== undefined && flowUrl !== undefined
  const missing = provider.clientId ? [] : ['client_id']
  if (!complete && !provider.issuer && !(flow === undefined && provider.tokenUrl)) missing.push('issuer')
  if (missing.length > 0) throw notConfigured(provider, missing)
  const discovered = complete || !provider.issuer ? undefined : await discoverAuthServer(provider.issuer, fetch, signal)
  // Endpoints set by hand carry no metadata to check; published ones must promise S256.
  if (discovered && flow === 'pkce') requireS256(discovered)
  const metadata: AuthServerMetadata = {
    ...discovered,
    issuer: discovered?.issuer ?? provider.issuer ?? '',
    token_endpoint: provider.tokenUrl ?? discovered!.token_endpoint,
  }
  if (provider.authorizeUrl) metadata.authorization_endpoint = provider.authorizeUrl
  if (provider.deviceAuthorizationUrl) metadata.device_authorization_endpoint = provider.deviceAuthorizationUrl
  if (provider.revocationUrl) metadata.revocation_endpoint = provider.revocationUrl
  if (flow === 'pkce' && !metadata.authorization_endpoint) throw notConfigured(provider, ['authorize_url'])
  if (flow === 'device' && !metadata.device_authorization_endpoint) {
    throw new UserError(`${provider.name} offers no device login`, {
      hint: `log in without --device, or set providers.${provider.name}.oauth.device_authorization_url`,
    })
  }

  return metadata
}

function notConfigured(provider: AuthProvider, missing: string[]): UserError {
  if (isHttpUrl(provider.name)) {
    return new UserError(`Logging in to ${provider.name} needs a client id`, {
      hint: 'pass --client-id with the client registered at that server',
    })
  }

  const keys = missing.map((field) => `providers.${provider.name}.oauth.${field}`)
  return new UserError(
    `hanzo-dev does not know how to log in to ${provider.name}: ${keys.join(' and ')} ${keys.length > 1 ? 'are' : 'is'} not set`,
    {
      hint: `set ${keys.length > 1 ? 'them' : 'it'} in your user settings (hanzo-dev config set ${keys[0]} ...), or store an API key: hanzo-dev auth login --provider ${provider.name} --with-api-key`,
    },
  )
}
