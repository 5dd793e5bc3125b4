import {homedir} from 'node:os'
import * as Flags from '@oclif/core/flags'

import {writeFileAtomic} from '../adapters/atomic-write.js'
import {nodeConfigIO, nodeSettingsWriteIO} from '../adapters/config-io.js'
import {keepingTrust} from '../adapters/trust-store.js'
import {editTarget, type EditResult, type EditTarget, setSetting, unsetSetting} from '../core/config/edit.js'
import type {Tier} from '../core/config/types.js'

/** `--tier`, as `config set` and `config unset` take it: the user file unless told otherwise. */
export function tierFlag(description: string) {
  return Flags.string({default: 'user', description, options: ['user', 'project', 'local']})
}

/** The settings file of `tier` that `config set` / `unset` change, written atomically. */
export function settingsTarget(tier: Tier, cwd = process.cwd()): Promise<EditTarget> {
  return editTarget(loadOptions(cwd), tier, nodeSettingsWriteIO(writeFileAtomic))
}

/** Runs `config set` / `unset`'s edit; the user's own edit keeps a trusted project trusted. */
export function editKeepingTrust<T>(edit: () => Promise<T>, cwd = process.cwd()): Promise<T> {
  return keepingTrust(loadOptions(cwd), edit)
}

/** `config set` (a `value`) or `config unset` (none) for a plugin's command (Host.editSetting). */
export async function editSetting(options: {
  cwd: string
  tier: Tier
  key: string
  value?: string
}): Promise<EditResult> {
  const {cwd, key, tier, value} = options
  const target = await settingsTarget(tier, cwd)
  return editKeepingTrust(() => (value === undefined ? unsetSetting(target, key) : setSetting(target, key, value)), cwd)
}

function loadOptions(cwd: string) {
  return {cwd, env: process.env, homedir: homedir(), io: nodeConfigIO}
}
