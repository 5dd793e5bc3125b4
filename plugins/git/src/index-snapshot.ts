import {copyFile, rename, rm} from 'node:fs/promises'
import {join, resolve} from 'node:path'

import {gitOutput} from './git-cli.js'
import type {Repository} from './repository.js'

/**
 * The index as it was before a command staged anything, to put back on cancel or a failed model
 * call. A byte copy of the index file rather than `git write-tree` / `git read-tree`: a tree
 * holds neither intent-to-add entries (`git add -N`, which write-tree leaves out, so read-tree
 * would make those files untracked again) nor the skip-worktree and assume-unchanged bits, and
 * read-tree drops the stat cache, so the next `git status` rereads every file.
 */
export interface IndexSnapshot {
  /** Puts the index back as it was; the copy is gone afterwards. */
  restore(): Promise<void>
  /** Keeps the index as it is now (the commit was made); the copy is gone afterwards. */
  discard(): Promise<void>
}

export async function snapshotIndex(repo: Repository): Promise<IndexSnapshot> {
  // --git-path follows GIT_INDEX_FILE and a linked worktree's own index.
  const index = resolve(
    repo.root,
    (await gitOutput(['rev-parse', '--git-path', 'index'], repo.context, 'Cannot find the index')).trim(),
  )
  const copy = join(repo.gitDir, `hanzo-index-${process.pid}-${Date.now()}`)
  let existed = true
  try {
    await copyFile(index, copy)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    existed = false
  }

  return {
    async discard() {
      await rm(copy, {force: true})
    },
    async restore() {
      // A rename replaces the index in one step, as git itself replaces it.
      if (existed) await rename(copy, index)
      else await rm(index, {force: true})
    },
  }
}
