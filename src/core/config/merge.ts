import type {EnvSettings} from './env.js'
import {INERT_KEYS, isPlainObject, type JsonObject, leaves} from './key-path.js'
import {mergePermissionRules} from './permission-rules.js'
import {DEFAULT_MODEL} from './schema.js'
import type {CheckedTier} from './tier-check.js'
import {type ConfigWarning, HOOK_DEFAULTS, type HanzoConfig, type HookConfig, type PermissionRule} from './types.js'

/**
 * Merges checked tiers (user, project, local, in that order) and the environment: objects key
 * by key at every depth (so `mcp_servers` by name, then field by field, `env` by variable),
 * arrays and scalars replaced by the later tier, `hooks` accumulated with their tier, and
 * `permissions` by {@link mergePermissionRules}. Every merged leaf records its origin.
 */
export function mergeTiers(
  tiers: CheckedTier[],
  env: EnvSettings,
): {config: HanzoConfig; origins: Record<string, string>; warnings: ConfigWarning[]; permissionRules: PermissionRule[]} {
  const merged: JsonObject = {}
  const origins: Record<string, string> = {}
  const hooks: HookConfig[] = []

  for (const {data, file, tier} of tiers) {
    const {hooks: tierHooks, permissions: _permissions, ...rest} = data
    mergeInto(merged, rest)
    for (const leaf of leaves(rest)) origins[leaf.key] = file
    for (const hook of Array.isArray(tierHooks) ? tierHooks : []) {
      const index = hooks.push({...HOOK_DEFAULTS, ...(hook as Omit<HookConfig, 'tier'>), tier}) - 1
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

function mergeInto(target: JsonObject, source: JsonObject): void {
  for (const [key, value] of Object.entries(source)) {
    if (INERT_KEYS.has(key)) continue
    const current = target[key]
    if (isPlainObject(value) && isPlainObject(current)) mergeInto(current, value)
    else target[key] = structuredClone(value)
  }
}
