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

/** Whether the value at `segments` is shown as {@link REDACTED}. */
export function isRedactedPath(segments: readonly string[]): boolean {
  const [top, , field] = segments
  if (top === 'api_key' || top === 'oauth_credentials') return true
  if (top === 'providers' && field === 'api_key') return true
  if (top === 'providers' && field === 'oauth') return segments.slice(3).some((s) => isSecretName(s))
  return userOnlyReason(segments) === 'credential'
}

/** A copy of the settings with every credential replaced by {@link REDACTED}; safe to print or hand to plugins. */
export function redactConfig(config: object): Record<string, unknown> {
  return redactValue(config, []) as Record<string, unknown>
}

function redactValue(value: unknown, segments: string[]): unknown {
  if (segments.length > 0 && isRedactedPath(segments)) return REDACTED
  if (Array.isArray(value)) return value.map((v, i) => redactValue(v, [...segments, String(i)]))
  if (!isPlainObject(value)) return value
  const out: JsonObject = {}
  for (const [k, v] of Object.entries(value)) {
    if (v !== undefined) out[k] = redactValue(v, [...segments, k])
  }

  return out
}
