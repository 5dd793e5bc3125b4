import {homedir} from 'node:os'
import * as Flags from '@oclif/core/flags'

import {writeFileAtomic} from '../adapters/atomic-write.js'
import {nodeConfigIO, nodeSettingsWriteIO} from '../adapters/config-io.js'
import {editTarget, type EditTarget} from '../core/config/edit.js'
import type {Tier} from '../core/config/types.js'

/** `--tier`, as `config set` and `config unset` take it: the user file unless told otherwise. */
export function tierFlag(description: string) {
  return Flags.string({default: 'user', description, options: ['user', 'project', 'local']})
}

/** The settings file of `tier` that `config set` / `unset` change, written atomically. */
export function settingsTarget(tier: Tier): Promise<EditTarget> {
  const options = {cwd: process.cwd(), env: process.env, homedir: homedir(), io: nodeConfigIO}
  return editTarget(options, tier, nodeSettingsWriteIO(writeFileAtomic))
}
