import {isPlainObject, joinKey, type JsonObject, leaves, unsetAt} from './key-path.js'
import {serverCarriesSecrets} from './sensitive.js'
import type {CheckedTier} from './tier-check.js'
import type {ConfigWarning} from './types.js'

/**
 * A project must not send the user's credentials elsewhere. A project or local setting that
 * would is dropped with a warning:
 * - a `base_url` (top level or `providers.<name>.base_url`) while any model key is the user's:
 *   in the user tier (`api_key`, `oauth_credentials`, `providers.*.api_key` / `oauth`), or in one
 *   of `keySources` (key variables, the credentials file, the keychain), unless `allowed_base_url_hosts` in the
 *   user tier names the URL's host. Keys are not matched to providers on purpose: a fallback
 *   key could reach any provider, so any user key guards every base_url.
 * - any change to `mcp_servers.<name>` but `"disabled": true` while the user tier gives that
 *   server credentials ({@link serverCarriesSecrets}). Not only `command` / `args` / `url`: an
 *   added `env.NODE_OPTIONS` or `env.PATH` runs the project's code with the user's secrets too,
 *   and an added header can do as much to an HTTP server. One warning per server names the keys.
 */
export function guardRedirects(tiers: CheckedTier[], keySources: readonly string[]): ConfigWarning[] {
  const user = tiers.find((t) => t.tier === 'user')?.data ?? {}
  const keySource = [...userKeyPaths(user), ...keySources][0]
  const warnings: ConfigWarning[] = []
  for (const tier of tiers) {
    if (tier.tier === 'user') continue
    const drop = (segments: string[], message: string) => {
      warnings.push({file: tier.file, keyPath: joinKey(segments), message})
      unsetAt(tier.data, segments)
    }

    const checkBaseUrl = (url: unknown, segments: string[]) => {
      if (typeof url !== 'string' || keySource === undefined || hostAllowed(url, user.allowed_base_url_hosts)) return
      drop(
        segments,
        `ignored: it would send your API key (${keySource}) to another host; ` +
          'to allow it, add the host to "allowed_base_url_hosts" in your user settings',
      )
    }

    checkBaseUrl(tier.data.base_url, ['base_url'])
    for (const [name, provider] of objectEntries(tier.data.providers))
      checkBaseUrl(provider.base_url, ['providers', name, 'base_url'])

    for (const [name, server] of objectEntries(tier.data.mcp_servers)) {
      if (!serverCarriesSecrets(objectAt(user.mcp_servers, name))) continue
      const changed = Object.keys(server).filter((field) => !(field === 'disabled' && server.disabled === true))
      if (changed.length === 0) continue
      const keys = leaves(Object.fromEntries(changed.map((field) => [field, server[field]]))).map((leaf) => leaf.key)
      warnings.push({
        file: tier.file,
        keyPath: joinKey(['mcp_servers', name]),
        message:
          `ignored ${keys.join(', ')}: your user settings give server "${name}" credentials, ` +
          'so only they may change it (a project may only turn it off with "disabled": true)',
      })
      for (const field of changed) unsetAt(tier.data, ['mcp_servers', name, field])
    }
  }

  return warnings
}

/**
 * Whether `url`'s host is in `allowed`: `"host"` matches it on any port, `"host:port"` exactly,
 * `"*.example.com"` any subdomain of example.com. An unparsable URL is never allowed.
 */
export function hostAllowed(url: string, allowed: unknown): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }

  const hostname = parsed.hostname.toLowerCase()
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80')
  const entries = Array.isArray(allowed) ? allowed.filter((e): e is string => typeof e === 'string') : []
  return entries.some((raw) => {
    const entry = raw.trim().toLowerCase()
    if (entry.startsWith('*.')) return hostname.endsWith(entry.slice(1)) && hostname.length > entry.length - 1
    const at = entry.lastIndexOf(':')
    const hasPort = at > entry.lastIndexOf(']')
    return hasPort ? `${hostname}:${port}` === entry : hostname === entry
  })
}

function userKeyPaths(user: JsonObject): string[] {
  const paths = ['api_key', 'oauth_credentials']
    .filter((k) => user[k] !== undefined)
    .map((k) => `${k} in your user settings`)
  for (const [name, provider] of objectEntries(user.providers)) {
    for (const field of ['api_key', 'oauth'])
      if (provider[field] !== undefined) paths.push(`providers.${name}.${field} in your user settings`)
  }

  return paths
}

function objectAt(value: unknown, key: string): JsonObject {
  const inner = isPlainObject(value) && Object.hasOwn(value, key) ? value[key] : undefined
  return isPlainObject(inner) ? inner : {}
}

function objectEntries(value: unknown): Array<[string, JsonObject]> {
  return isPlainObject(value) ? Object.entries(value).filter((e): e is [string, JsonObject] => isPlainObject(e[1])) : []
}
