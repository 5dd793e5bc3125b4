import type {HanzoConfig} from '../../core/config/types.js'
import {workspaceRoot} from '../tools/workspace-path.js'
import {CHECKPOINT_DEFAULTS, CheckpointRecorder, type CheckpointSettings} from './capture.js'
import {pruneCheckpoints} from './retention.js'
import {CheckpointStore} from './store.js'

export function checkpointSettings(config: Pick<HanzoConfig, 'checkpoints'>): CheckpointSettings {
  const set = config.checkpoints ?? {}
  return {
    enabled: set.enabled ?? CHECKPOINT_DEFAULTS.enabled,
    keepDays: set.keep_days ?? CHECKPOINT_DEFAULTS.keepDays,
    maxFileBytes: set.max_file_bytes ?? CHECKPOINT_DEFAULTS.maxFileBytes,
    maxTotalMb: set.max_total_mb ?? CHECKPOINT_DEFAULTS.maxTotalMb,
  }
}

export interface OpenCheckpointsOptions {
  config: Pick<HanzoConfig, 'checkpoints'>
  cwd: string
  dataDir: string
  hidden: readonly string[]
  session: string
  prompt(): number
  warn(message: string): void
}

/**
 * The recorder of a saved session's checkpoints, holding its lock; undefined when the setting
 * turns them off. Old and oversized checkpoints of other sessions are pruned on the way, in the
 * background: a session never waits for it, and a failure is a warning.
 */
export async function openCheckpoints(options: OpenCheckpointsOptions): Promise<CheckpointRecorder | undefined> {
  const settings = checkpointSettings(options.config)
  if (!settings.enabled) return undefined
  const store = CheckpointStore.at(options.dataDir)
  const root = await workspaceRoot(options.cwd)
  const recorder = new CheckpointRecorder({
    dir: store.projectDir(root),
    hidden: options.hidden,
    maxFileBytes: settings.maxFileBytes,
    prompt: options.prompt,
    root,
    session: options.session,
  })
  recorder.hold()
  pruneCheckpoints(store, settings).catch((error: Error) =>
    options.warn(`could not prune old checkpoints: ${error.message}`),
  )
  return recorder
}
