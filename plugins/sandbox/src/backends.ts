import {findExecutable, runCommand} from '@hanzo-dev/sdk'

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

/**
 * The trial runs use the namespaces real runs need, with `true` as the payload: whether a
 * namespace can be made is decided by the kernel, seccomp and AppArmor at run time, so
 * finding the binary proves nothing.
 */
export const BWRAP_TRIAL = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', '--die-with-parent', '--new-session', 'true']
export const UNSHARE_TRIAL = ['--user', '--map-root-user', '--mount', 'true']

export async function probeBubblewrap(context: ProbeContext): Promise<BackendProbe> {
  const path = await findExecutable('bwrap', context)
  if (!path) return {works: false}
  const [version, trial] = await Promise.all([run(path, ['--version'], context), run(path, BWRAP_TRIAL, context)])
  return {
    path,
    reason: trial.failure,
    version: version.ok ? version.stdout.trim().replace(/^bubblewrap\s+/, '') : undefined,
    works: trial.ok,
  }
}

export async function probeUnshare(context: ProbeContext): Promise<BackendProbe> {
  const path = await findExecutable('unshare', context)
  if (!path) return {works: false}
  const trial = await run(path, UNSHARE_TRIAL, context)
  return {path, reason: trial.failure, works: trial.ok}
}

function run(path: string, args: string[], context: ProbeContext) {
  return runCommand(path, args, {cwd: context.cwd, env: context.env, signal: context.signal, timeoutMs: PROBE_TIMEOUT_MS})
}
