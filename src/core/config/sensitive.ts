// The narrow entry: the sdk's index also loads its process helpers, which settings never need.
import {REDACTED} from '@hanzo-dev/sdk/settings'

import {isPlainObject, type JsonObject} from './key-path.js'

/**
 * Which settings only the user tier may hold, and which are shown redacted.
 *
 * A repository's `.hanzo/settings.json` is written by whoever wrote the repository, so it may not
 * carry credentials (they would be committed, or be someone else's) nor widen where the user's
 * credentials may be sent. Such keys in the project or local tier are ignored with a warning.
 */

/** Names of environment variables and headers that carry secrets. */
const SECRET_NAME = /api[-_]?key|access[-_]?key|private[-_]?key|secret|token|passw(?:or)?d|pwd|credential|auth|cookie|session|^key$/i

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name)
}

export type UserOnlyReason = 'credential' | 'trust'

/** Why the key at `segments` may only come from the user tier (or the environment), if it must. */
export function userOnlyReason(segments: readonly string[]): UserOnlyReason | undefined {
  const [top, name, field, sub] = segments
  if (top === 'api_key' || top === 'oauth_credentials') return 'credential'
  if (top === 'allowed_base_url_hosts' || top === 'credentials') return 'trust'
  if (top === 'providers' && segments.length >= 3 && (field === 'api_key' || field === 'oauth')) return 'credential'
  if (top === 'mcp_servers' && name !== undefined && (field === 'env' || field === 'headers') && sub !== undefined) {
    return isSecretName(sub) ? 'credential' : undefined
  }

  return undefined
}

/** `--api-key`, `-token`: a command-line flag whose value is a secret. */
function isSecretFlag(arg: string): boolean {
  const flag = /^--?([a-z][\w.-]*)$/i.exec(arg)
  return flag !== null && isSecretName(flag[1])
}

/**
 * A command line with the values of secret flags redacted: the argument after `--token`, and
 * the value in `--api-key=...`. Other arguments only lose URL secrets ({@link redactUrl}).
 */
export function redactArgs(args: readonly unknown[]): unknown[] {
  return args.map((arg, i) => {
    if (typeof arg !== 'string') return arg
    const previous = args[i - 1]
    if (typeof previous === 'string' && isSecretFlag(previous)) return REDACTED
    const inline = /^(--?[a-z][\w.-]*)=/i.exec(arg)
    if (inline && isSecretFlag(inline[1])) return `${inline[1]}=${REDACTED}`
    return redactUrl(arg)
  })
}

function parseUrl(text: string): URL | undefined {
  if (!/^[a-z][\d+.a-z-]*:\/\//i.test(text)) return undefined
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

/** Whether `text` is a URL with a user name or password in it (`https://user:pw@host/`). */
export function hasUrlUserinfo(text: string): boolean {
  const url = parseUrl(text)
  return url !== undefined && (url.username !== '' || url.password !== '')
}

/** Whether `text` is a URL with a user name, password, or a secret-named query parameter. */
function urlCarriesSecret(text: string): boolean {
  const url = parseUrl(text)
  return url !== undefined && (hasUrlUserinfo(text) || [...url.searchParams.keys()].some((k) => isSecretName(k)))
}

/**
 * A URL with its user info, every query value and its fragment redacted (any of them may be a
 * token: `?access_token=`, `#id_token=`); any other text as it is.
 */
export function redactUrl(text: string): string {
  const url = parseUrl(text)
  if (!url || (url.username === '' && url.password === '' && url.search === '' && url.hash === '')) return text
  const userinfo = url.username === '' && url.password === '' ? '' : `${REDACTED}@`
  const query = [...new Set(url.searchParams.keys())].map((k) => `${encodeURIComponent(k)}=${REDACTED}`).join('&')
  return `${url.protocol}//${userinfo}${url.host}${url.pathname}${query ? `?${query}` : ''}${url.hash ? `#${REDACTED}` : ''}`
}

/**
 * Whether an MCP server's settings carry a credential: a secret-named `env` or `headers` entry,
 * a secret flag in its command line, or a URL with user info or a secret-named query parameter.
 */
export function serverCarriesSecrets(server: JsonObject): boolean {
  const names = [server.env, server.headers].flatMap((map) => (isPlainObject(map) ? Object.keys(map) : []))
  const argv = [server.command, server.args].flatMap((list) => (Array.isArray(list) ? list : []))
  return (
    names.some((name) => isSecretName(name)) ||
    argv.some((arg) => typeof arg === 'string' && (isSecretFlag(arg) || isSecretFlag(arg.split('=')[0]) || urlCarriesSecret(arg))) ||
    (typeof server.url === 'string' && urlCarriesSecret(server.url))
  )
}

/** Whether the value at `segments` is shown as {@link REDACTED}. */
export function isRedactedPath(segments: readonly string[]): boolean {
  const [top, , field] = segments
  if (top === 'api_key' || top === 'oauth_credentials') return true
  if (top === 'providers' && field === 'api_key') return true
  if (top === 'providers' && field === 'oauth') return segments.slice(3).some((s) => isSecretName(s))
  return userOnlyReason(segments) === 'credential'
}

function isServerCommandLine(segments: readonly string[]): boolean {
  return segments.length === 3 && segments[0] === 'mcp_servers' && (segments[2] === 'command' || segments[2] === 'args')
}

/**
 * A copy of the settings with every credential replaced by {@link REDACTED}: user-only keys,
 * secret flags' values in MCP command lines, and URLs' user info, query values and fragments.
 * Safe to print or hand to plugins.
 */
export function redactConfig(config: object): Record<string, unknown> {
  return redactValue(config, []) as Record<string, unknown>
}

function redactValue(value: unknown, segments: string[]): unknown {
  if (segments.length > 0 && isRedactedPath(segments)) return REDACTED
  if (Array.isArray(value) && isServerCommandLine(segments)) return redactArgs(value)
  if (Array.isArray(value)) return value.map((v, i) => redactValue(v, [...segments, String(i)]))
  if (typeof value === 'string') return redactUrl(value)
  if (!isPlainObject(value)) return value
  const out: JsonObject = {}
  for (const [k, v] of Object.entries(value)) {
    if (v !== undefined) out[k] = redactValue(v, [...segments, k])
  }

  return out
}
