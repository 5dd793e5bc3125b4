import {type GitContext, runGit} from './git-cli.js'

export interface RepositoryInfo {
  /** The working tree's top-level directory. */
  root: string
  /** The checked-out branch; undefined on a detached HEAD. */
  branch?: string
  /** The abbreviated commit on a detached HEAD. */
  detachedAt?: string
}

/**
 * The repository `context.cwd` is in, or undefined outside one. A branch with no commit yet
 * still has its name (symbolic-ref reads HEAD, which rev-parse cannot resolve there).
 */
export async function readRepository(context: GitContext): Promise<RepositoryInfo | undefined> {
  const top = await runGit(['rev-parse', '--show-toplevel'], context)
  if (!top.ok) return undefined
  const root = top.stdout.trim()

  const symbolic = await runGit(['symbolic-ref', '--quiet', '--short', 'HEAD'], context)
  if (symbolic.ok) return {branch: symbolic.stdout.trim(), root}

  const head = await runGit(['rev-parse', '--short', 'HEAD'], context)
  return {detachedAt: head.ok ? head.stdout.trim() : undefined, root}
}
