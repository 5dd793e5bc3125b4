import {ENV_BINDINGS} from './env.js'
import type {ConfigFile, LoadedConfig, Tier} from './types.js'

/** Where a merged setting came from: a settings file's tier, or the environment. */
export type SettingTier = Tier | 'env'

/** HIP-301 §4's order: each tier wins over those before it. */
export const TIER_RANK: Readonly<Record<SettingTier, number>> = {env: 4, local: 3, project: 2, user: 1}

/**
 * How high the tier that set `key` is (TIER_RANK), 0 for a default or a key no tier set: what
 * tells two settings apart when each would decide the same thing (`base_url` and `provider`).
 */
export type SettingRank = (key: string) => number

/** Every setting ranks the same: for callers that have merged settings without their origins. */
export const UNRANKED: SettingRank = () => 0

/** The tier of an origin (`LoadedConfig.origins`: a file's path or a variable's name); undefined for `default`. */
export function originTier(origin: string | undefined, files: readonly ConfigFile[] = []): SettingTier | undefined {
  if (origin === undefined) return undefined
  const file = files.find((f) => f.path === origin)
  if (file) return file.tier
  return ENV_BINDINGS.some((binding) => binding.variable === origin) ? 'env' : undefined
}

export function settingRank(loaded: Pick<LoadedConfig, 'origins' | 'files'>): SettingRank {
  return (key) => {
    const tier = originTier(loaded.origins[key], loaded.files)
    return tier ? TIER_RANK[tier] : 0
  }
}
