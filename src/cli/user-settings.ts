import {homedir} from 'node:os'

import {nodeConfigIO} from '../adapters/config-io.js'
import {loadConfig} from '../core/config/load.js'
import type {ProjectTrustPort} from '../core/config/trust.js'
import type {LoadedConfig} from '../core/config/types.js'

/** The merged settings a command runs with: this process's directory, environment and home. */
export function loadUserSettings(trust: ProjectTrustPort = userTrustStore()): Promise<LoadedConfig> {
  return loadConfig({cwd: process.cwd(), env: process.env, homedir: homedir(), io: nodeConfigIO, trust})
}

/**
 * The user's trust store, imported when first asked: only a project whose settings need trust
 * (hooks, MCP servers, allow rules) is looked up, and most commands run where none does.
 */
function userTrustStore(): ProjectTrustPort {
  let store: Promise<ProjectTrustPort> | undefined
  const open = () =>
    (store ??= import('../adapters/trust-store.js').then(({FileTrustStore}) =>
      FileTrustStore.of(process.env, homedir()),
    ))
  return {
    lookup: async (projectRoot) => (await open()).lookup(projectRoot),
    noteNoticed: async (projectRoot, digest) => (await open()).noteNoticed(projectRoot, digest),
  }
}
