import {type SettingRank, TIER_RANK, UNRANKED} from '../config/precedence.js'
import {redactBaseUrl} from '../config/redact.js'
import type {HanzoConfig} from '../config/types.js'
import {NoCredentialError, UserError} from '../errors.js'

/**
 * Where a run's model requests go. Hanzo's API is the default; any OpenAI-compatible server
 * (Ollama, vLLM, LM Studio) works through a base URL. Precedence, highest first: the
 * `--base-url` / `--model` flags, then the settings, then the provider's defaults. Among the
 * settings the environment wins over every file, then local, project, user (`SettingRank`), also
 * where two keys decide one thing: see `providerTarget` (base URL) and `settingsModel`.
 */
export interface ModelEndpoint {
  provider: string
  model: string
  baseURL: string
  /** Undefined for local servers that need none. */
  apiKey?: string
  /** A server on this machine: it gets no key but `providers.<name>.api_key` (or the provider's own login). */
  local: boolean
  api: 'chat_completions' | 'responses' | 'anthropic_messages'
  maxRetries: number
  /** How Anthropic's API gets the key: an OAuth access token goes as a bearer token. */
  authScheme?: 'x-api-key' | 'bearer'
  /** `providers.<name>.prompt_cache`; unset: each wire API's default (openai-client.ts, anthropic-request.ts). */
  promptCache?: boolean
}

interface BuiltinProvider {
  baseURL: string
  /** The environment variable holding its key, besides the settings. */
  keyVariable?: string
  /** Local servers take any key. */
  local?: boolean
  /** What it is asked for when nothing names a model; absent: the `model` setting's default. */
  defaultModel?: string
}

export const BUILTIN_PROVIDERS: Readonly<Record<string, BuiltinProvider>> = {
  anthropic: {baseURL: 'https://api.anthropic.com', keyVariable: 'ANTHROPIC_API_KEY'},
  hanzo: {baseURL: 'https://api.hanzo.ai/v1', keyVariable: 'HANZO_API_KEY'},
  lmstudio: {baseURL: 'http://127.0.0.1:1234/v1', local: true},
  ollama: {baseURL: 'http://127.0.0.1:11434/v1', local: true},
  // OpenAI's current general model with API access (developers.openai.com/codex/models, 2026).
  openai: {baseURL: 'https://api.openai.com/v1', defaultModel: 'gpt-5.5', keyVariable: 'OPENAI_API_KEY'},
  vllm: {baseURL: 'http://127.0.0.1:8000/v1', local: true},
}

export const DEFAULT_PROVIDER = 'hanzo'
export const DEFAULT_MAX_RETRIES = 2

/**
 * `flags.model` is the model a flag or the settings name (not the built-in default, which is
 * Anthropic's: a provider with a default of its own gets that instead).
 * `storedKey` is the provider's own credential from `auth login` (an API key or an OAuth access
 * token): a key from the environment or the user settings wins over it (HIP-301 §6), and unlike
 * those it is sent to a local server too, since it was issued for this very provider.
 */
export function resolveEndpoint(
  config: HanzoConfig,
  env: Readonly<Record<string, string | undefined>>,
  flags: EndpointChoice = {},
  storedKey?: string,
): ModelEndpoint {
  const {baseURL, baseUrlSetting, builtin, custom, provider} = providerTarget(config, flags)
  const host = hostOf(baseURL)
  const local = isLoopbackHost(host) || builtin?.local === true
  // A local server gets no key but its own: the Hanzo or OpenAI key has no business there.
  const configured = configuredKey(config, env, provider)?.key
  // A stored login may go to the provider's own URL, local or not, but never to a local server
  // that --base-url or base_url put in its place.
  const redirected = flags.baseURL !== undefined || baseUrlSetting === 'base_url'
  const apiKey = custom?.api_key ?? (local ? undefined : configured) ?? (local && redirected ? undefined : storedKey)
  if (!apiKey && !local) {
    throw new NoCredentialError(`No API key for ${redactBaseUrl(baseURL)}`, {
      hint: 'run `hanzo-dev auth login`, set HANZO_API_KEY, or point --base-url at a local server (e.g. Ollama: http://127.0.0.1:11434/v1)',
    })
  }

  return {
    api: custom?.api ?? config.api ?? defaultApi(host),
    apiKey,
    baseURL,
    local,
    maxRetries: config.max_retries ?? DEFAULT_MAX_RETRIES,
    // A model named by a flag or the settings, else the provider's own, else the built-in default.
    model: flags.model ?? builtin?.defaultModel ?? config.model,
    provider,
    ...(custom?.prompt_cache !== undefined && {promptCache: custom.prompt_cache}),
  }
}

/** The providers `provider` may name: the built-in ones, then those defined under `providers`. */
export function knownProviders(config: Pick<HanzoConfig, 'providers'>): string[] {
  return [...new Set([...Object.keys(BUILTIN_PROVIDERS), ...Object.keys(config.providers ?? {})])]
}

export function unknownProviderError(provider: string, known: readonly string[], context = ''): UserError {
  return new UserError(`Unknown provider "${provider}"${context}`, {
    hint: `use one of ${known.join(', ')}, or define it first: hanzo-dev config set providers.${provider}.base_url <url>`,
  })
}

/**
 * What a caller chose for this run: `--model` / `--base-url` (or the model the settings name for
 * it, `settingsModel`), and where each setting came from (without it every setting ranks the same).
 */
export interface EndpointChoice {
  model?: string
  baseURL?: string
  rank?: SettingRank
}

/**
 * The provider a run talks to and the base URL its requests go to, before any key is looked for,
 * with the setting that gave the URL (undefined: a flag or the provider's own). An unknown
 * provider or one without a base URL is a UserError.
 *
 * The top-level `base_url` is the default provider's. It applies to another provider too when
 * it comes from the environment (HANZO_BASE_URL, as --base-url: the environment wins over every
 * file) or from a higher tier than the one that chose the provider; a `base_url` left in the
 * user settings does not follow a project to its own provider. Against `providers.<name>.base_url`
 * the higher tier wins, the provider's own on a tie.
 */
export function providerTarget(config: HanzoConfig, choice: Omit<EndpointChoice, 'model'> = {}) {
  const provider = config.provider ?? DEFAULT_PROVIDER
  const builtin: BuiltinProvider | undefined = BUILTIN_PROVIDERS[provider]
  const custom = config.providers?.[provider]
  if (!builtin && !custom) throw unknownProviderError(provider, knownProviders(config))
  const rank = choice.rank ?? UNRANKED
  const own = `providers.${provider}.base_url`
  const topApplies =
    config.base_url !== undefined &&
    (config.provider === undefined ||
      provider === DEFAULT_PROVIDER ||
      rank('base_url') === TIER_RANK.env ||
      rank('base_url') > rank('provider'))
  let baseUrlSetting: string | undefined
  if (choice.baseURL === undefined) {
    if (topApplies && (custom?.base_url === undefined || rank('base_url') > rank(own))) baseUrlSetting = 'base_url'
    else if (custom?.base_url !== undefined) baseUrlSetting = own
  }

  const baseURL =
    choice.baseURL ?? (baseUrlSetting === 'base_url' ? config.base_url : custom?.base_url) ?? builtin?.baseURL
  if (!baseURL)
    throw new UserError(`Provider "${provider}" has no base_url`, {hint: `set providers.${provider}.base_url`})
  return {baseURL, baseUrlSetting, builtin, custom, provider}
}

/**
 * The model the settings name for the run, for `EndpointChoice.model`: none when no tier names
 * one (the built-in default), or when it comes from a lower tier than the provider (a model
 * chosen for another provider: `HANZO_PROVIDER=openai` over a user file's Claude model asks for
 * OpenAI's default instead).
 */
export function settingsModel(config: Pick<HanzoConfig, 'model'>, rank: SettingRank): string | undefined {
  const tier = rank('model')
  return tier > 0 && tier >= rank('provider') ? config.model : undefined
}

/** A key for `provider` from the user settings or the environment, and where it came from (never the key in messages). */
export function configuredKey(
  config: HanzoConfig,
  env: Readonly<Record<string, string | undefined>>,
  provider: string,
): {key: string; source: string} | undefined {
  const custom = config.providers?.[provider]?.api_key
  if (custom) return {key: custom, source: `providers.${provider}.api_key`}
  // The top-level api_key (and HANZO_API_KEY, which sets it) belongs to the default provider.
  if (config.api_key && provider === DEFAULT_PROVIDER) return {key: config.api_key, source: 'api_key'}
  const variable = BUILTIN_PROVIDERS[provider]?.keyVariable
  const fromEnv = variable ? env[variable] : undefined
  return variable && fromEnv ? {key: fromEnv, source: variable} : undefined
}

/** Each vendor's own API on its own host (the Messages API for Anthropic, whatever the provider is called); chat completions elsewhere. */
function defaultApi(host: string): ModelEndpoint['api'] {
  if (host === 'api.openai.com') return 'responses'
  if (host === 'api.anthropic.com') return 'anthropic_messages'
  return 'chat_completions'
}

/** A host on this machine: a server there gets no key but its own. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]'
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname
  } catch {
    throw new UserError(`The base URL "${redactBaseUrl(url)}" is not a URL`, {
      hint: 'use e.g. http://127.0.0.1:11434/v1',
    })
  }
}
