import {getAt, leaves, resolveKey} from './key-path.js'
import {redactConfig} from './redact.js'
import type {HanzoConfig} from './types.js'

/**
 * What `config list` and `config get` show: merged settings with every credential replaced by
 * REDACTED, one `key=value` line per leaf, and where each came from (like `git config --show-origin`).
 */

export interface SettingEntry {
  key: string
  value: unknown
  /** The file path or environment variable the value came from, `default`, or `mixed` for a section from several. */
  origin?: string
}

/**
 * The merged settings as shown: redacted, and without the `tier` tags the merge puts on servers
 * and hooks (no file sets them, so they are not settings a user could change).
 */
export function shownConfig(config: HanzoConfig): Record<string, unknown> {
  // Spread first, so the sections keep their place in the order settings are listed.
  return redactConfig({
    ...config,
    hooks: (config.hooks ?? []).map(({tier: _tier, ...hook}) => hook),
    mcp_servers: Object.fromEntries(
      Object.entries(config.mcp_servers ?? {}).map(([name, {tier: _tier, ...server}]) => [name, server]),
    ),
  })
}

export function settingEntries(config: HanzoConfig, origins: Readonly<Record<string, string>>): SettingEntry[] {
  return leaves(shownConfig(config)).map(({key, value}) => ({key, origin: origins[key], value}))
}

/** One setting (a leaf or a whole section), redacted; `undefined` when it is not set. */
export function settingEntry(
  config: HanzoConfig,
  origins: Readonly<Record<string, string>>,
  key: string,
): SettingEntry | undefined {
  const {segments} = resolveKey(key)
  const value = getAt(shownConfig(config), segments)
  if (value === undefined) return undefined
  const joined = segments.join('.')
  return {key: joined, origin: origins[joined] ?? sectionOrigin(origins, joined), value}
}

/** A section's origin when all its values come from one place; `mixed` when they do not. */
function sectionOrigin(origins: Readonly<Record<string, string>>, key: string): string | undefined {
  const found = new Set(
    Object.entries(origins)
      .filter(([k]) => k.startsWith(`${key}.`))
      .map(([, origin]) => origin),
  )
  if (found.size > 1) return 'mixed'
  return found.values().next().value
}

/** Strings as they are, everything else as JSON (so a list or a section can be pasted back). */
export function formatValue(value: unknown, indent?: number): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, indent)
}

/** `file:<path>`, `env:<VARIABLE>`, `default` or `mixed`, like git's `--show-origin` prefixes. */
export function formatOrigin(origin: string | undefined): string {
  if (origin === undefined) return 'default'
  if (origin === 'default' || origin === 'mixed') return origin
  return /^[A-Z][A-Z\d_]*$/.test(origin) ? `env:${origin}` : `file:${origin}`
}
