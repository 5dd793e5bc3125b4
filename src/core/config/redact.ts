// The narrow entry: the sdk's index also loads its process helpers, which settings never need.
import {REDACTED, redactServerArgs, redactServerUrl, redactUrl} from '@hanzo-dev/sdk/settings'

import {isPlainObject, type JsonObject} from './key-path.js'
import {hasSecretShape} from './sensitive.js'

/**
 * The settings as they may be shown (`config list`, `config get`, `--json`).
 *
 * Redaction goes by where a value sits, not by what its name looks like: a secret hides as well
 * in `CREDS`, `-p pw` or `SLACK_WEBHOOK=https://hooks.slack.com/services/…/SECRET` as in `TOKEN`.
 * So every MCP server's `env` and `headers` value, all of a hook's command line but its program,
 * and all of a URL but its scheme and host are redacted. An MCP server's arguments and URL keep
 * what is no secret (paths, package names, flags: `redactServerArgs`, `redactServerUrl`), and a
 * model base URL keeps its path ({@link redactBaseUrl}).
 * Other values (models, instructions, patterns) are shown as they are.
 *
 * Messages that may quote a secret (a server's error echoing the key) go through
 * {@link redactSecrets}, which takes only whole tokens that can be secrets.
 */

type Redactor = (value: unknown) => unknown
type RedactorAt = (segments: readonly string[]) => Redactor | undefined

export function redactConfig(config: object): Record<string, unknown> {
  return redactValue(config, [], displayRedactorAt) as Record<string, unknown>
}

/**
 * The settings handed to plugins: the model credentials redacted, but hook commands and MCP
 * server entries whole, because the plugins that own them must run them (with their tokens).
 * Plugins run in the CLI's process and could read the files anyway: this keeps keys they have
 * no use for out of their hands (and their logs), it is not a wall.
 */
export function redactForPlugins(config: object): Record<string, unknown> {
  return redactValue(config, [], credentialRedactorAt) as Record<string, unknown>
}

function redactValue(value: unknown, segments: string[], redactorAt: RedactorAt): unknown {
  const redactor = redactorAt(segments)
  if (redactor) return redactor(value)
  if (Array.isArray(value)) return value.map((v, i) => redactValue(v, [...segments, String(i)], redactorAt))
  if (!isPlainObject(value)) return value
  const out: JsonObject = {}
  for (const [k, v] of Object.entries(value)) {
    if (v !== undefined) out[k] = redactValue(v, [...segments, k], redactorAt)
  }

  return out
}

function credentialRedactorAt(segments: readonly string[]): Redactor | undefined {
  const [top, , field] = segments
  if (segments.length === 1) {
    if (top === 'api_key' || top === 'oauth_credentials') return redactWhole
    if (top === 'base_url') return redactBaseUrlValue
    return undefined
  }

  if (segments.length === 2 && top === 'tracing' && segments[1] === 'api_key') return redactWhole
  if (segments.length === 3 && top === 'providers') {
    if (field === 'api_key' || field === 'oauth') return redactWhole
    if (field === 'base_url') return redactBaseUrlValue
  }

  return undefined
}

function displayRedactorAt(segments: readonly string[]): Redactor | undefined {
  const credential = credentialRedactorAt(segments)
  if (credential || segments.length !== 3) return credential
  const [top, , field] = segments
  if (top === 'mcp_servers') {
    if (field === 'env' || field === 'headers') return redactMapValues
    if (field === 'args') return (value) => (Array.isArray(value) ? redactServerArgs(value) : REDACTED)
    if (field === 'command') return redactServerCommand
    if (field === 'url') return (value) => (typeof value === 'string' ? redactServerUrl(value) : REDACTED)
    if (field === 'oauth')
      return (value) => (isPlainObject(value) && 'client_secret' in value ? {...value, client_secret: REDACTED} : value)
  }

  if (top === 'hooks' && field === 'command')
    return (value) => (typeof value === 'string' ? redactCommandLine(value) : REDACTED)
  return undefined
}

function redactWhole(): string {
  return REDACTED
}

function redactBaseUrlValue(value: unknown): unknown {
  return typeof value === 'string' ? redactBaseUrl(value) : REDACTED
}

/** The names stay (which variables or headers are set is worth seeing), every value goes. */
function redactMapValues(value: unknown): unknown {
  if (!isPlainObject(value)) return REDACTED
  return Object.fromEntries(Object.keys(value).map((k) => [k, REDACTED]))
}

/** An argv keeps its program; a string is a command line (run by the shell). */
function redactServerCommand(value: unknown): unknown {
  if (typeof value === 'string') return redactCommandLine(value)
  if (!Array.isArray(value)) return REDACTED
  const [program, ...args] = value
  return [typeof program === 'string' ? program : REDACTED, ...redactServerArgs(args)]
}

/** A shell word as written: quoted text (closed or not) stays within its word. */
const SHELL_WORD = /(?:[^\s"'\\]|\\.|"(?:[^"\\]|\\.)*"?|'[^']*'?)+/g
const ASSIGNMENT = /^([A-Za-z_]\w*)=/

/**
 * A shell command line with only its program shown: `API_TOKEN=x curl -H "…" url` becomes
 * `API_TOKEN=[redacted] curl [redacted]` (the leading assignments keep their names).
 */
function redactCommandLine(line: string): string {
  const words = line.match(SHELL_WORD) ?? []
  const shown: string[] = []
  let i = 0
  for (; i < words.length; i++) {
    const assignment = ASSIGNMENT.exec(words[i])
    if (!assignment) break
    shown.push(`${assignment[1]}=${REDACTED}`)
  }

  if (i < words.length) shown.push(words[i])
  if (i + 1 < words.length) shown.push(REDACTED)
  return shown.join(' ')
}

/**
 * Shorter values are not redacted in text unless they look like a key (sensitive.ts): a
 * placeholder key like `k` or `model` is no secret, and hiding every "k" and "model" in a
 * message would leave nothing readable.
 */
export const MIN_SECRET_LENGTH = 8

/** Not part of a token: a secret is only found where a word of its own starts and ends. */
const TOKEN_CHAR = String.raw`[\p{L}\p{N}_-]`

/**
 * `text` with every one of `secrets` replaced by {@link REDACTED}, for messages that may quote
 * what a server received (an API key echoed in a 401, a client secret in an OAuth error). Each
 * is matched as a whole token, and only when it is {@link MIN_SECRET_LENGTH} characters or
 * longer or has the shape of a key.
 */
export function redactSecrets(text: string, secrets: Iterable<string | undefined>): string {
  let clean = text
  for (const secret of secrets) {
    if (!secret || (secret.length < MIN_SECRET_LENGTH && !hasSecretShape(secret))) continue
    const escaped = secret.replaceAll(/[$()*+./?[\\\]^{|}]/g, String.raw`\$&`)
    clean = clean.replaceAll(new RegExp(`(?<!${TOKEN_CHAR})${escaped}(?!${TOKEN_CHAR})`, 'gu'), REDACTED)
  }

  return clean
}

/**
 * A model base URL fit for output: unlike other URLs (`redactUrl`, whose path may be a token:
 * `/sse/ghp_...`) its path is shown, since `/v1` or `/openai/v1` is what a user checks when the
 * server answers 404. The user info, query and fragment are redacted, and a path segment that
 * looks like a key. Text that is not an http(s) URL is shown as typed (the user must see what
 * was wrong with it), unless it looks like a key.
 */
export function redactBaseUrl(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') return hasSecretShape(url.trim()) ? REDACTED : url
  return redactUrl(parsed, (segment) => !hasSecretShape(decodeSegment(segment)))
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
