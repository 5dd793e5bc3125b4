import {type CommandResult, runCommand} from '@hanzo-dev/sdk'

export interface GitContext {
  /** The directory git runs in. */
  cwd: string
  env: Readonly<Record<string, string | undefined>>
  signal?: AbortSignal
}

/** Reading repository state is quick; anything slower than this means git is stuck (a lock, a network mount). */
export const GIT_TIMEOUT_MS = 5000

/** Runs git with `args` (no shell); commit and PR workflows build on the same call. */
export function runGit(args: readonly string[], context: GitContext): Promise<CommandResult> {
  return runCommand('git', args, {cwd: context.cwd, env: context.env, signal: context.signal, timeoutMs: GIT_TIMEOUT_MS})
}

/** `git version 2.39.5` -> `2.39.5`; undefined when git cannot run. */
export async function gitVersion(context: GitContext): Promise<string | undefined> {
  const result = await runGit(['--version'], context)
  if (!result.ok) return undefined
  return /(\d+\.\d+(?:\.\d+)?)/.exec(result.stdout)?.[1] ?? result.stdout.trim()
}
