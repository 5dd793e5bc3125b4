// The narrow entry: the sdk's index also loads its process helpers, which settings never need.
import {REDACTED, redactUrl} from '@hanzo-dev/sdk/settings'

import {isPlainObject, type JsonObject} from './key-path.js'

/**
 * The settings as they may be shown (`config list`, `config get`, `--json`).
 *
 * Redaction goes by where a value sits, not by what its name looks like: a secret hides as well
 * in `CREDS`, `-p pw` or `SLACK_WEBHOOK=https://hooks.slack.com/services/…/SECRET` as in `TOKEN`.
 * So every MCP server's `env` and `headers` value, every argument that is not a plain flag, all
 * of a command line but its program, and all of a URL but its scheme and host are redacted.
 * Other values (models, instructions, patterns) are shown as they are.
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
    if (top === 'base_url') return redactUrlValue
    return undefined
  }

  if (segments.length === 2 && top === 'tracing' && segments[1] === 'api_key') return redactWhole
  if (segments.length === 3 && top === 'providers') {
    if (field === 'api_key' || field === 'oauth') return redactWhole
    if (field === 'base_url') return redactUrlValue
  }

  return undefined
}

function displayRedactorAt(segments: readonly string[]): Redactor | undefined {
  const credential = credentialRedactorAt(segments)
  if (credential || segments.length !== 3) return credential
  const [top, , field] = segments
  if (top === 'mcp_servers') {
    if (field === 'env' || field === 'headers') return redactMapValues
    if (field === 'args') return (value) => (Array.isArray(value) ? redactArgs(value) : REDACTED)
    if (field === 'command') return redactServerCommand
    if (field === 'url') return redactUrlValue
  }

  if (top === 'hooks' && field === 'command') return (value) => (typeof value === 'string' ? redactCommandLine(value) : REDACTED)
  return undefined
}

function redactWhole(): string {
  return REDACTED
}

function redactUrlValue(value: unknown): unknown {
  return typeof value === 'string' ? redactUrl(value) : REDACTED
}

/** The names stay (which variables or headers are set is worth seeing), every value goes. */
function redactMapValues(value: unknown): unknown {
  if (!isPlainObject(value)) return REDACTED
  return Object.fromEntries(Object.keys(value).map((k) => [k, REDACTED]))
}

/** `-p` and `--header` stay; whatever follows a flag, or is joined to one with `=`, may be its secret. */
const PLAIN_FLAG = /^--?[a-z][\w.-]*$/i

function redactArgs(args: readonly unknown[]): unknown[] {
  return args.map((arg) => (typeof arg === 'string' && PLAIN_FLAG.test(arg) ? arg : REDACTED))
}

/** An argv keeps its program; a string is a command line (run by the shell). */
function redactServerCommand(value: unknown): unknown {
  if (typeof value === 'string') return redactCommandLine(value)
  if (!Array.isArray(value)) return REDACTED
  const [program, ...args] = value
  return [typeof program === 'string' ? program : REDACTED, ...redactArgs(args)]
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
