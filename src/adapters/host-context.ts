import {homedir} from 'node:os'

import type {HostContext} from '@hanzo-dev/sdk'

import {loadConfig} from '../core/config/load.js'
import {redactForPlugins} from '../core/config/redact.js'
import {untrustedForPlugins} from '../core/config/trust-review.js'
import type {HanzoConfig, LoadedConfig} from '../core/config/types.js'
import {resolvePaths} from '../core/paths.js'
import {nodeConfigIO} from './config-io.js'
import {FileTrustStore} from './trust-store.js'

export type HostInput = Omit<HostContext, 'apiVersion' | 'signal'>

/**
 * What plugins see of a run: settings with the model credentials redacted, where things live,
 * and what an untrusted project's settings would add.
 */
export function hostInput(
  loaded: Pick<LoadedConfig, 'projectRoot'> & Partial<Pick<LoadedConfig, 'trust'>> & {config: Partial<HanzoConfig>},
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): HostInput {
  const {configDir, dataDir} = resolvePaths(env, homedir())
  const untrusted = loaded.trust && untrustedForPlugins(loaded.trust)
  return {configDir, cwd, dataDir, env, projectRoot: loaded.projectRoot, settings: redactForPlugins(loaded.config as HanzoConfig), ...(untrusted ? {untrusted} : {})}
}

/** For a plugin's own commands (see `loadHostLibrary` in @hanzo-dev/sdk). */
export async function loadHostContext(options: {cwd: string; env: Readonly<Record<string, string | undefined>>}) {
  const loaded = await loadConfig({...options, homedir: homedir(), io: nodeConfigIO, trust: FileTrustStore.of(options.env, homedir())})
  return {host: hostInput(loaded, options.cwd, options.env), warnings: loaded.warnings}
}
