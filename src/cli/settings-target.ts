import {homedir} from 'node:os'

import {writeFileAtomic} from '../adapters/atomic-write.js'
import {nodeConfigIO, nodeSettingsWriteIO} from '../adapters/config-io.js'
import {editTarget, type EditTarget} from '../core/config/edit.js'
import type {Tier} from '../core/config/types.js'

/** The settings file of `tier` that `config set` / `unset` change, written atomically. */
export function settingsTarget(tier: Tier): Promise<EditTarget> {
  const options = {cwd: process.cwd(), env: process.env, homedir: homedir(), io: nodeConfigIO}
  return editTarget(options, tier, nodeSettingsWriteIO(writeFileAtomic))
}
