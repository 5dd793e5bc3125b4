import type {EnvSettings} from './env.js'
import {INERT_KEYS, isPlainObject, type JsonObject, leaves} from './key-path.js'
import {mergePermissionRules} from './permission-rules.js'
import {DEFAULT_MODEL} from './schema.js'
import type {CheckedTier} from './tier-check.js'
import {
  type ConfigWarning,
  HOOK_DEFAULTS,
  type HanzoConfig,
  type ConfiguredHook,
  type PermissionRule,
  type Tier,
} from './types.js'

/**
 * Merges checked tiers (user, project, local, in that order) and the environment: objects key
 * by key at every depth (so `mcp_servers` by name, then field by field, `env` by variable),
 * arrays and scalars replaced by the later tier, `hooks` accumulated with their tier, and
 * `permissions` by {@link mergePermissionRules}. Every merged leaf records its origin.
 *
 * An MCP server's transport is replaced, not mixed: a tier that sets `url` drops an earlier
 * tier's `command` and `args`, one that sets `command` drops an earlier `url`. Every merged
 * server is tagged with the `tier` its `command` or `url` came from (where it runs or connects,
 * which is what a trust prompt must judge), or, when no tier gives either, the first tier naming it.
 */
export function mergeTiers(
  tiers: CheckedTier[],
  env: EnvSettings,
): {
  config: HanzoConfig
  origins: Record<string, string>
  warnings: ConfigWarning[]
  permissionRules: PermissionRule[]
} {
  const merged: JsonObject = {}
  const origins: Record<string, string> = {}
  const hooks: ConfiguredHook[] = []
  const serverTiers = new Map<string, Tier>()

  for (const {data, file, tier} of tiers) {
    const {hooks: tierHooks, permissions: _permissions, ...rest} = data
    for (const [name, server] of Object.entries(isPlainObject(rest.mcp_servers) ? rest.mcp_servers : {})) {
      if (!isPlainObject(server)) continue
      const transport = TRANSPORT_FIELDS.find(([field]) => server[field] !== undefined)
      if (transport) replaceTransport(merged, origins, name, transport[1])
      if (changesWhatRuns(server) || !serverTiers.has(name)) serverTiers.set(name, tier)
    }

    mergeInto(merged, rest)
    for (const leaf of leaves(rest)) origins[leaf.key] = file
    for (const hook of Array.isArray(tierHooks) ? tierHooks : []) {
      const index = hooks.push({...HOOK_DEFAULTS, ...(hook as Omit<ConfiguredHook, 'tier'>), tier}) - 1
      for (const leaf of leaves(hook, ['hooks', String(index)])) origins[leaf.key] = file
    }
  }

  mergeInto(merged, env.data)
  Object.assign(origins, env.origins)

  const {rules, warnings} = mergePermissionRules(tiers)
  const permissions: HanzoConfig['permissions'] = {}
  for (const rule of rules) {
    permissions[rule.pattern] = rule.mode
    origins[`permissions.${rule.pattern}`] = rule.file
  }

  for (const [name, tier] of serverTiers) {
    const server = (merged.mcp_servers as Record<string, JsonObject> | undefined)?.[name]
    if (server) server.tier = tier
  }

  if (merged.model === undefined) origins.model = 'default'
  const config = {
    mcp_servers: {},
    model: DEFAULT_MODEL,
    ...merged,
    hooks,
    permissions,
  } as HanzoConfig
  return {config, origins, permissionRules: rules, warnings}
}

/** A field that sets a server's transport, and the fields of the other transport it replaces. */
const TRANSPORT_FIELDS: ReadonlyArray<[string, readonly string[]]> = [
  ['command', ['url']],
  ['url', ['command', 'args']],
]

/** Whether a tier's entry for a server sets anything besides turning it off. */
export function changesWhatRuns(server: JsonObject): boolean {
  return Object.entries(server).some(
    ([field, value]) => value !== undefined && !(field === 'disabled' && value === true),
  )
}

function replaceTransport(
  merged: JsonObject,
  origins: Record<string, string>,
  name: string,
  fields: readonly string[],
): void {
  const server = isPlainObject(merged.mcp_servers) ? merged.mcp_servers[name] : undefined
  if (!isPlainObject(server)) return
  for (const field of fields) {
    delete server[field]
    const prefix = `mcp_servers.${name}.${field}`
    for (const key of Object.keys(origins)) if (key === prefix || key.startsWith(`${prefix}.`)) delete origins[key]
  }
}

function mergeInto(target: JsonObject, source: JsonObject): void {
  for (const [key, value] of Object.entries(source)) {
    if (INERT_KEYS.has(key)) continue
    const current = target[key]
    if (isPlainObject(value) && isPlainObject(current)) mergeInto(current, value)
    else target[key] = structuredClone(value)
  }
}
