import {DEFAULT_HOOK_TIMEOUT_MS, type HookConfig as SdkHookConfig, type SettingsWarning} from '@hanzo-dev/sdk/settings'

import type {ProjectTrust, ProjectTrustPort} from './trust.js'

/** Where a settings file sits; later tiers win: user < project < local (< environment). */
export type Tier = 'user' | 'project' | 'local'

export const TIERS: readonly Tier[] = ['user', 'project', 'local']

export type PermissionMode = 'allow' | 'deny' | 'prompt'

export interface McpServerConfig {
  /** The server's argv: a string (a command line run by the shell) or an argv array. */
  command?: string | string[]
  args?: string[]
  env?: Record<string, string>
  url?: string
  headers?: Record<string, string>
  /** Kept in the merged settings (so `doctor` can list it) but never started. */
  disabled?: boolean
  /**
   * Set by the merge, never read from a file: the most local tier whose file set any of the
   * server's fields other than `disabled: true` (a project that changes a user server's `args` or
   * `env` changes what runs), else the first tier that names the server. Project and local
   * servers come from the repository, so a trust prompt can tell them apart.
   */
  tier: Tier
}

/** One configured hook with its defaults applied and the tier it came from (project hooks need trust). */
export type ConfiguredHook = SdkHookConfig & {tier: Tier}

export const HOOK_DEFAULTS = {fail_open: false, timeout_ms: DEFAULT_HOOK_TIMEOUT_MS, tool_pattern: '*'} as const

export interface SandboxSettings {
  mode?: 'off' | 'workspace' | 'allowlist'
  allowed_paths?: string[]
  network?: boolean
}

/** `web_search`: which search API answers the model's queries. */
export interface WebSearchSettings {
  provider: 'hanzo' | 'searxng' | 'brave'
  /** The API's base URL; each provider has its own default but SearXNG, which is always the user's. */
  url?: string
  /** The environment variable holding the key (never the key itself: settings files are shared). */
  api_key_env?: string
}

export interface ProviderSettings {
  base_url?: string
  api_key?: string
  api?: 'chat_completions' | 'responses' | 'anthropic_messages'
  /** Whether its models take images; unset: by the model's name (model-images.ts). */
  images?: boolean
  /** Prompt caching asked for on the wire; unset: on for Anthropic's API and OpenAI's own (openai-client.ts). */
  prompt_cache?: boolean
  oauth?: ProviderOAuthSettings
}

/** `providers.<name>.oauth`: overrides of the built-in login table, or a whole custom provider. */
export interface ProviderOAuthSettings {
  issuer?: string
  client_id?: string
  client_secret?: string
  authorize_url?: string
  token_url?: string
  device_authorization_url?: string
  revocation_url?: string
  redirect_uri?: string
  scopes?: string[]
  flow?: 'pkce' | 'device'
}

/** The merged settings (HIP-301 HanzoConfig plus hanzo-dev's fields), snake_case as in the files. */
export interface HanzoConfig {
  api_key?: string
  oauth_credentials?: Record<string, unknown>
  model: string
  base_url?: string
  provider?: string
  /** User tier only: hosts a project or local `base_url` may point at while the user's key is in use. */
  allowed_base_url_hosts?: string[]
  mcp_servers: Record<string, McpServerConfig>
  /**
   * Tool pattern -> mode, in the merged rule order: for showing and listing only. Do NOT evaluate
   * this flat map first-match-wins on its own: a project's `"exec(*)": "allow"` would then beat
   * the user's `"exec(rm *)": "deny"`. The permission policy reads {@link LoadedConfig.permissionRules},
   * which keep each rule's tier, and takes a deny from any tier first (test-vectors/README.md,
   * "Permission rules").
   */
  permissions: Record<string, PermissionMode>
  custom_instructions?: string
  hooks: ConfiguredHook[]
  input_mode?: 'vim' | 'emacs' | 'default'
  sandbox?: SandboxSettings
  /** User tier only: which secret-looking variables commands still get. */
  exec?: {env_passthrough?: string[]}
  /** The tools a session offers: groups, names and globs (`--tools` beats it). */
  tools?: {enabled?: string[]}
  /** What `sessions rewind` can put back (defaults in checkpoints/capture.ts). */
  checkpoints?: {enabled?: boolean; max_file_bytes?: number; max_total_mb?: number; keep_days?: number}
  providers?: Record<string, ProviderSettings>
  api?: 'chat_completions' | 'responses' | 'anthropic_messages'
  max_retries?: number
  max_turns?: number
  max_tokens?: number
  /** `false`: no automatic compaction (on by default at 90% of the context window). */
  auto_compact?: boolean
  /** The output limit of each model request (a reply that reaches it ends the run as `max_tokens`). */
  max_output_tokens?: number
  reserve_recent?: number
  /** USD per million tokens by model id; `context_window` in tokens, for a model the catalog does not know. */
  pricing?: Record<
    string,
    {input: number; output: number; cache_read?: number; cache_write?: number; context_window?: number}
  >
  tracing?: {endpoint?: string; api_key?: string}
  credentials?: {store?: 'file' | 'keychain'}
  /** User tier only: the search API behind the `web_search` tool, which is offered only when this is set. */
  web_search?: WebSearchSettings
}

export interface ConfigFile {
  tier: Tier
  path: string
  exists: boolean
}

/** Something in a settings file that was ignored: the sdk's shape, which plugin commands print too. */
export type ConfigWarning = SettingsWarning

/**
 * One permission rule of the merged policy, with where it came from. First match wins within a
 * tier; across tiers a matching deny of any tier wins, else the highest tier's match decides.
 */
export interface PermissionRule {
  pattern: string
  mode: PermissionMode
  tier: Tier
  file: string
}

export interface LoadConfigOptions {
  cwd: string
  env: Readonly<Record<string, string | undefined>>
  homedir: string
  /** Skips the search for the project: its `.hanzo/` directory is read from here. */
  projectRoot?: string
  /** File access: the real file system is `nodeConfigIO` (src/adapters/config-io.ts). */
  io: ConfigIO
  /**
   * The user's trust decisions (`FileTrustStore`, src/adapters/trust-store.ts): without it the
   * project and local hooks, MCP servers and allow rules apply untrusted, as HIP-301's merge
   * defines. The CLI and plugin commands always pass it (see trust.ts).
   */
  trust?: ProjectTrustPort
}

export interface LoadedConfig {
  config: HanzoConfig
  /** The directory whose `.hanzo/` holds the project and local settings. */
  projectRoot: string
  files: ConfigFile[]
  /** Dotted key of every merged leaf -> the file path or environment variable it came from, or `default`. */
  origins: Record<string, string>
  warnings: ConfigWarning[]
  /**
   * The merged permission rules: local, then project, then user rules, each tier in file order.
   * What the permission policy reads (not `config.permissions`): the tiers decide who wins.
   */
  permissionRules: PermissionRule[]
  /** Whether the project's hooks, MCP servers and allow rules apply, and what was left out if not. */
  trust: ProjectTrust
}

/** How the loader touches the file system. */
export interface ConfigIO {
  /** What is at `path`, following symlinks. */
  kind(path: string): Promise<'file' | 'directory' | 'other' | 'missing'>
  /** The parsed JSON document at `path` (`undefined` for an empty file), or `null` when there is no file. */
  readJson(path: string): Promise<{value: unknown} | null>
  /**
   * The regular files in `dir` whose names end with `suffix` (any case), sorted by name, with
   * their text; none when there is no such directory. Absent: the loader sees no such files
   * (the project's agent definitions, which trust covers).
   */
  readTextFiles?(dir: string, suffix: string): Promise<Array<{name: string; text: string}>>
  /**
   * Every entry below `dir`, at any depth, by path relative to it (`/`-separated, sorted), each
   * as a text that changes whenever its bytes do (a symbolic link: its target); none when there
   * is no such directory. Absent: the loader sees no skill files.
   */
  readFileTree?(dir: string): Promise<Array<{name: string; text: string}>>
}
