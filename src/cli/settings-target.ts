import {homedir} from 'node:os'
import * as Flags from '@oclif/core/flags'

import {writeFileAtomic} from '../adapters/atomic-write.js'
import {nodeConfigIO, nodeSettingsWriteIO} from '../adapters/config-io.js'
import {keepingTrust} from '../adapters/trust-store.js'
import {editTarget, type EditTarget} from '../core/config/edit.js'
import type {Tier} from '../core/config/types.js'

/** `--tier`, as `config set` and `config unset` take it: the user file unless told otherwise. */
export function tierFlag(description: string) {
  return Flags.string({default: 'user', description, options: ['user', 'project', 'local']})
}

/** The settings file of `tier` that `config set` / `unset` change, written atomically. */
export function settingsTarget(tier: Tier): Promise<EditTarget> {
  return editTarget(loadOptions(), tier, nodeSettingsWriteIO(writeFileAtomic))
}

/** Runs `config set` / `unset`'s edit; the user's own edit keeps a trusted project trusted. */
export function editKeepingTrust<T>(edit: () => Promise<T>): Promise<T> {
  return keepingTrust(loadOptions(), edit)
}

function loadOptions() {
  return {cwd: process.cwd(), env: process.env, homedir: homedir(), io: nodeConfigIO}
}
