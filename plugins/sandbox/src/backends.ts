import {findExecutable, runCommand} from '@hanzo-dev/sdk'

import type {Mechanism} from './isolation.js'

export interface ProbeContext {
  cwd: string
  env: Readonly<Record<string, string | undefined>>
  signal?: AbortSignal
}

export interface BackendProbe {
  /** Where the tool is; undefined when it is not on PATH. */
  path?: string
  version?: string
  /** True when a trial run succeeded here. */
  works: boolean
  /** Why the trial run failed (the tool's own words when it gave some). */
  reason?: string
}

export const PROBE_TIMEOUT_MS = 5000

const BINARY: Record<Mechanism, string> = {bwrap: 'bwrap', unshare: 'unshare'}

/**
 * Finds the mechanism's tool and makes a trial run with `trialArgs`: the arguments a real run
 * would get, with `true` as the command. Whether a namespace can be made is decided by the
 * kernel, seccomp and AppArmor at run time, and whether the binds work by the paths, so finding
 * the binary proves nothing and a generic trial proves little.
 */
export async function probeMechanism(
  mechanism: Mechanism,
  trialArgs: readonly string[],
  context: ProbeContext,
): Promise<BackendProbe> {
  const path = await findExecutable(BINARY[mechanism], context)
  if (!path) return {works: false}
  const [version, trial] = await Promise.all([
    mechanism === 'bwrap' ? run(path, ['--version'], context) : undefined,
    run(path, trialArgs, context),
  ])
  return {
    path,
    reason: trial.failure,
    version: version?.ok ? version.stdout.trim().replace(/^bubblewrap\s+/, '') : undefined,
    works: trial.ok,
  }
}

function run(path: string, args: readonly string[], context: ProbeContext) {
  return runCommand(path, args, {
    cwd: context.cwd,
    env: context.env,
    signal: context.signal,
    timeoutMs: PROBE_TIMEOUT_MS,
  })
}
