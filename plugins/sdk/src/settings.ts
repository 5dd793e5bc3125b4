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

/** Names of environment variables, flags, headers and query parameters that carry secrets (`auth`, not `author`: `--author=` names a person). */
const SECRET_NAME =
  /api[-_]?key|access[-_]?key|private[-_]?key|secret|token|passw(?:or)?d|pwd|credential|auth(?!ors?(?:$|[^a-z]))|cookie|session|^key$/i

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name)
}

/**
 * Values that are secrets by their look, whatever their length: the prefixes of well-known API
 * keys and tokens (OpenAI and Anthropic `sk-`, Stripe, GitHub, GitLab, Slack, Hugging Face, npm),
 * AWS access key ids, Google API keys, and JWTs.
 */
const SECRET_SHAPE =
  /^(?:(?:sk|rk|pk)[-_]|gh[opusr]_|github_pat_|glpat-|xox[abeoprs]-|hf_|npm_)[\w-]+$|^(?:AKIA|ASIA)[\dA-Z]{16}$|^AIza[\w-]{35}$|^eyJ[\w-]*\.[\w-]+\.[\w-]*$/

export function hasSecretShape(value: string): boolean {
  return SECRET_SHAPE.test(value)
}

/** A key's shape, or a long run of letters and digits mixed (a random token in a path: `/s/8f3kq…/mcp`). */
function looksLikeKey(value: string): boolean {
  return hasSecretShape(value) || (/^[\w-]{20,}$/.test(value) && /\d/.test(value) && /[a-z]/i.test(value))
}

/** `--api-key`, `-token`: a command-line flag whose value is a secret. */
export function isSecretFlag(arg: string): boolean {
  const flag = /^--?([a-z][\w.-]*)$/i.exec(arg)
  return flag !== null && isSecretName(flag[1])
}

/**
 * An MCP server's URL as `mcp list`, `mcp get` and `config list` show it: the path (`/mcp`,
 * `/v1/sse`), which a user checks when it answers 404, and the query's names; the user info,
 * the fragment, every query value and any path segment that looks like a key are {@link REDACTED}.
 */
export function redactServerUrl(url: string | URL): string {
  let parsed: URL
  try {
    parsed = typeof url === 'string' ? new URL(url) : url
  } catch {
    return REDACTED
  }

  const bare = new URL(parsed)
  bare.search = ''
  bare.hash = ''
  const shown = redactUrl(bare, (segment) => !looksLikeKey(decodeOr(segment)))
  const query = [...parsed.searchParams.keys()].map((name) => `${encodeURIComponent(name)}=${REDACTED}`).join('&')
  return `${shown}${query ? `?${query}` : ''}${parsed.hash ? `#${REDACTED}` : ''}`
}

/** A path (`/srv/data`, `./docs`, `~/notes`, `C:\\work`) or a scoped package (`@scope/name`). */
const PATH_OR_PACKAGE = /^(?:\.{0,2}\/|~\/|[A-Za-z]:[/\\]|@[\w.-]+\/)\S*$/

/**
 * An MCP server's arguments as shown: flags, paths and scoped packages (a filesystem server's
 * directories are worth seeing), unless a secret-named flag comes before one or a part of it
 * looks like a key, and `${NAME}` references; a URL as {@link redactServerUrl}; any other word is {@link REDACTED}, since
 * a secret hides as well after `-p` as after `--token`.
 */
export function redactServerArgs(args: readonly unknown[]): unknown[] {
  const shown = (word: string) => PATH_OR_PACKAGE.test(word) && !word.split(/[/\\@]/).some((part) => looksLikeKey(part))
  return args.map((arg, i) => {
    if (typeof arg !== 'string') return REDACTED
    // A flag, or a reference to a variable (`${NAME}`, expanded at start-up): the name is no secret.
    if (/^--?[a-z][\w.-]*$/i.test(arg) || /^(?:\$\{[A-Za-z_]\w*\})+$/.test(arg)) return arg
    const previous = args[i - 1]
    if (typeof previous === 'string' && isSecretFlag(previous)) return REDACTED
    if (/^[a-z][\d+.a-z-]*:\/\//i.test(arg)) return redactServerUrl(arg)
    const named = /^(--?[A-Za-z][\w.-]*)=(.*)$/s.exec(arg)
    if (named) return `${named[1]}=${!isSecretName(named[1]) && shown(named[2]) ? named[2] : REDACTED}`
    return shown(arg) ? arg : REDACTED
  })
}

function decodeOr(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
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
