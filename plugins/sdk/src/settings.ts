/**
 * What the host puts in place of every credential in `HostContext.settings`: plugins see
 * that a key is set, never its value.
 */
export const REDACTED = '[redacted]'

/**
 * A URL fit for output: scheme, host and port, with the user info, every non-empty path
 * segment, the query and the fragment replaced by {@link REDACTED}, since any of them may carry
 * a token (`https://u:pw@h/`, `/sse/ghp_...`, `?access_token=`, `#id_token=`). Text that is not
 * a URL is redacted whole. The host and the plugins show URLs only through this.
 * `showSegment` keeps the path segments it accepts (a model base URL's `/v1`).
 */
export function redactUrl(url: string | URL, showSegment: (segment: string) => boolean = () => false): string {
  let parsed: URL
  try {
    parsed = typeof url === 'string' ? new URL(url) : url
  } catch {
    return REDACTED
  }

  const userinfo = parsed.username === '' && parsed.password === '' ? '' : `${REDACTED}@`
  const path = parsed.pathname
    .split('/')
    .map((segment) => (segment === '' || showSegment(segment) ? segment : REDACTED))
    .join('/')
  return `${parsed.protocol}//${userinfo}${parsed.host}${path}${parsed.search ? `?${REDACTED}` : ''}${parsed.hash ? `#${REDACTED}` : ''}`
}

/** Something in a settings file that was ignored; `file` is a path or an environment variable name. */
export interface SettingsWarning {
  file: string
  keyPath?: string
  message: string
}

/** `file: key.path: message`, the one way a settings warning is printed, by the host and by plugin commands. */
export function formatWarning(w: SettingsWarning): string {
  return `${w.file}: ${w.keyPath ? `${w.keyPath}: ` : ''}${w.message}`
}

/**
 * Settings reach plugins as plain JSON that may be partial or hand-edited; plugins read
 * their section through this guard instead of trusting its shape.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The hook events (HIP-301 §9's `pre_tool_use` and `post_tool_use`, plus the session events
 * users of Claude Code expect). The settings schema and the hooks plugin both check against
 * this list, so a hook `config set` accepts is one the hooks plugin runs.
 */
export const HOOK_EVENTS = [
  'pre_tool_use',
  'post_tool_use',
  'session_start',
  'user_prompt_submit',
  'stop',
  'pre_compact',
] as const
export type HookEvent = (typeof HOOK_EVENTS)[number]

/** One configured hook as the merged settings hold it, defaults applied. */
export interface HookConfig {
  event: HookEvent
  /** Run by `sh -c`, in the project root. */
  command: string
  /** Glob over tool names; `*` matches every tool. */
  tool_pattern: string
  timeout_ms: number
  /** When the hook itself errors (not a deny), let the tool run instead of blocking it. */
  fail_open: boolean
  /** The settings tier the hook came from: project hooks need the user's trust. */
  tier?: string
}

/** HIP-301 §9's default timeout of a settings hook (a shell command around tool calls). */
export const DEFAULT_HOOK_TIMEOUT_MS = 5000
/** Past this a hook holds the agent hostage; a larger value is a typo (seconds written as ms twice over). */
export const MAX_HOOK_TIMEOUT_MS = 600_000

/**
 * The environment variables that hold a model key, in the order the provider registry reads
 * them. The settings loader counts them as the user's keys (a project may not redirect them),
 * and the agents plugin reports them.
 */
export const CREDENTIAL_ENV_VARS = ['HANZO_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY'] as const
