import {git, gitFailure} from './git-cli.js'
import type {Repository} from './repository.js'

export interface StashResult {
  stashed: boolean
  /** `stash@{0}` when something was stashed. */
  ref?: string
  sha?: string
  message?: string
}

/** `git stash push`, named "hanzo: <time>" unless `message` names it; `stashed: false` when there was nothing to stash. */
export async function stashChanges(
  repo: Repository,
  options: {message?: string; includeUntracked?: boolean} = {},
): Promise<StashResult> {
  const message = options.message ?? `hanzo: ${new Date().toISOString()}`
  // git stash says "No local changes to save" with exit 0: the stash ref moving is what tells.
  const before = await git(['rev-parse', '--verify', '--quiet', 'refs/stash'], repo.context)
  const pushed = await git(
    ['stash', 'push', '--quiet', '-m', message, ...(options.includeUntracked ? ['--include-untracked'] : [])],
    repo.context,
  )
  if (!pushed.ok) throw gitFailure('Cannot stash', pushed)
  const after = await git(['rev-parse', '--verify', '--quiet', 'refs/stash'], repo.context)
  if (!after.ok || after.stdout === before.stdout) return {stashed: false}
  return {message, ref: 'stash@{0}', sha: after.stdout.trim(), stashed: true}
}
