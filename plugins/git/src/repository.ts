import {isAbsolute, join, relative, sep} from 'node:path'

import {type GitContext, GitError, git, gitOutput, runGit} from './git-cli.js'

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

/** A repository the git commands act on: every git call runs at its top level, so paths read the same from any subdirectory. */
export interface Repository extends RepositoryInfo {
  /** Context for git calls, `cwd` at the top level. */
  context: GitContext
  /** This working tree's git directory (a linked worktree has its own). */
  gitDir: string
  /** False on a branch with no commit yet. */
  hasHead: boolean
  /** Where the user ran the command: paths shown to them are relative to it. */
  userCwd: string
}

/** The repository around `context.cwd`; outside one a GitError that says so. */
export async function openRepository(context: GitContext): Promise<Repository> {
  const info = await readRepository(context)
  if (!info) {
    throw new GitError(`${context.cwd} is not in a git repository`, {
      hint: 'run this inside a git repository (git init makes one, git clone fetches one)',
    })
  }

  const at = {...context, cwd: info.root}
  const [gitDir, head] = await Promise.all([
    git(['rev-parse', '--absolute-git-dir'], at),
    git(['rev-parse', '--verify', '--quiet', 'HEAD'], at),
  ])
  return {...info, context: at, gitDir: gitDir.stdout.trim(), hasHead: head.ok, userCwd: context.cwd}
}

/** A file in the git directory, and how the user types it from where they are (`.git/NAME` at the top level). */
export function gitDirFile(repo: Repository, name: string): {path: string; shown: string} {
  const path = join(repo.gitDir, name)
  const shown = relative(repo.userCwd, path)
  return {
    path,
    shown:
      shown === '' || isAbsolute(shown) || shown.split(sep).filter((part) => part === '..').length > 2 ? path : shown,
  }
}

/** `main`, or `detached HEAD at abc1234`. */
export function headName(repo: RepositoryInfo): string {
  return repo.branch ?? `detached HEAD${repo.detachedAt ? ` at ${repo.detachedAt}` : ''}`
}

/** The empty tree's id (it differs between SHA-1 and SHA-256 repositories): what a first commit is compared with. */
export async function emptyTree(repo: Repository): Promise<string> {
  return (await gitOutput(['mktree'], repo.context, 'Cannot make the empty tree')).trim()
}
