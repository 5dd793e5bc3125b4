import {homedir} from 'node:os'

import type {HostContext} from '@hanzo-dev/sdk'

import {loadConfig} from '../core/config/load.js'
import {originTier, type SettingTier} from '../core/config/precedence.js'
import {redactForPlugins} from '../core/config/redact.js'
import {untrustedForPlugins} from '../core/config/trust-review.js'
import type {ConfigWarning, HanzoConfig, LoadedConfig} from '../core/config/types.js'
import {resolvePaths} from '../core/paths.js'
import {nodeConfigIO} from './config-io.js'
import {FileTrustStore} from './trust-store.js'

export type HostInput = Omit<HostContext, 'apiVersion' | 'signal'>

/**
 * What plugins see of a run: settings with the model credentials redacted, where things live,
 * and what an untrusted project's settings would add.
 */
export function hostInput(
  loaded: Pick<LoadedConfig, 'projectRoot'> &
    Partial<Pick<LoadedConfig, 'trust' | 'origins' | 'files'>> & {config: Partial<HanzoConfig>},
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): HostInput {
  const {configDir, dataDir} = resolvePaths(env, homedir())
  const untrusted = loaded.trust && untrustedForPlugins(loaded.trust)
  const settings = redactForPlugins(loaded.config as HanzoConfig)
  return {
    configDir,
    cwd,
    dataDir,
    env,
    projectRoot: loaded.projectRoot,
    settings,
    tiers: settingTiers(loaded),
    ...(untrusted ? {untrusted} : {}),
  }
}

/** The tier of each merged setting: origins name a file or an environment variable; defaults are left out. */
function settingTiers(loaded: Partial<Pick<LoadedConfig, 'origins' | 'files'>>): NonNullable<HostInput['tiers']> {
  const tiers: Record<string, SettingTier> = {}
  for (const [key, origin] of Object.entries(loaded.origins ?? {})) {
    const tier = originTier(origin, loaded.files)
    if (tier) tiers[key] = tier
  }

  return tiers
}

/** The merged settings as a command outside the CLI's own (a plugin's, a library caller's) finds them. */
export function loadSettings(options: {
  cwd: string
  env: Readonly<Record<string, string | undefined>>
}): Promise<LoadedConfig> {
  return loadConfig({
    ...options,
    homedir: homedir(),
    io: nodeConfigIO,
    trust: FileTrustStore.of(options.env, homedir()),
  })
}

/** For a plugin's own commands (`Host.loadHostContext`, src/host.ts), which print the warnings. */
export async function loadHostContext(options: {cwd: string; env: Readonly<Record<string, string | undefined>>}) {
  const loaded = await loadSettings(options)
  return {host: hostInput(loaded, options.cwd, options.env), warnings: unsaid(loaded.warnings)}
}

const said = new Set<string>()

/**
 * The settings warnings this process has not given yet, now counted as given: a plugin command
 * that loads the settings and then opens an agent session (`agent NAME`) says each once.
 */
export function unsaid(warnings: readonly ConfigWarning[]): ConfigWarning[] {
  return warnings.filter((warning) => {
    const key = `${warning.file ?? ''}\0${warning.message}`
    if (said.has(key)) return false
    said.add(key)
    return true
  })
}
