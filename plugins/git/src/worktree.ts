import {existsSync} from 'node:fs'
import {basename, dirname, join} from 'node:path'

import {branchExists, checkBranchName} from './branches.js'
import {GitError, git, gitFailure} from './git-cli.js'
import type {Repository} from './repository.js'

/** `git worktree add ../<repo>-<name> -b <name>`, the path beside the main working tree whichever worktree it runs in. */
export async function addWorktree(repo: Repository, name: string): Promise<{path: string; branch: string}> {
  await checkBranchName(repo, name)
  if (await branchExists(repo, name))
    throw new GitError(`A branch named ${name} exists already`, {
      hint: `git worktree add PATH ${name} checks it out in a new working tree; or choose another name`,
    })
  if (!repo.hasHead)
    throw new GitError('This branch has no commit yet: a new working tree needs one to start from', {
      hint: 'make the first commit, then run this again',
    })
  const common = (await git(['rev-parse', '--path-format=absolute', '--git-common-dir'], repo.context)).stdout.trim()
  const main = basename(common) === '.git' ? dirname(common) : repo.root
  const path = join(dirname(main), `${basename(main)}-${name.replaceAll('/', '-')}`)
  if (existsSync(path))
    throw new GitError(`${path} exists already`, {hint: 'choose another name, or remove that directory'})
  const added = await git(['worktree', 'add', '--quiet', path, '-b', name], repo.context)
  if (!added.ok) throw gitFailure(`Cannot add the working tree ${path}`, added)
  return {branch: name, path}
}
