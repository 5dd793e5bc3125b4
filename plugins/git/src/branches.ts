import {GitError, git, gitFailure} from './git-cli.js'
import type {Repository} from './repository.js'

/** A name git accepts for a branch (`git check-ref-format --branch`); a GitError naming the problem otherwise. */
export async function checkBranchName(repo: Repository, name: string): Promise<void> {
  const checked = await git(['check-ref-format', '--branch', name], repo.context)
  if (!checked.ok) {
    throw new GitError(`"${name}" is not a valid branch name`, {
      exitCode: 2,
      hint: 'use letters, digits, - _ . and /; no spaces, no "..", no ~ ^ : ? * [ or \\, and it may not start with -',
    })
  }
}

export async function branchExists(repo: Repository, name: string): Promise<boolean> {
  return (await git(['show-ref', '--verify', '--quiet', `refs/heads/${name}`], repo.context)).ok
}

/** `git checkout -b NAME` from HEAD: the working tree and the index go along unchanged. */
export async function createBranch(repo: Repository, name: string): Promise<void> {
  await checkBranchName(repo, name)
  if (await branchExists(repo, name))
    throw new GitError(`A branch named ${name} exists already`, {
      hint: `switch to it with git switch ${name}, or choose another name`,
    })
  const made = await git(['checkout', '--quiet', '-b', name], repo.context)
  if (!made.ok) throw gitFailure(`Cannot create the branch ${name}`, made)
}

const MAX_BRANCH_WORDS = 48

/** `feat(parser): Keep trailing commas` -> `feat/parser-keep-trailing-commas`: a branch named for a commit message. */
export function branchFromMessage(message: string): string {
  const subject = message.split('\n', 1)[0]
  const conventional = /^(\w+)(?:\(([^)]*)\))?!?:\s*(.*)$/.exec(subject)
  const slug = (text: string) =>
    text
      .normalize('NFKD')
      .replaceAll(/[\u0300-\u036F]/g, '')
      .toLowerCase()
      .replaceAll('ß', 'ss')
      .replaceAll(/[^a-z0-9]+/g, '-')
      .replaceAll(/^-+|-+$/g, '')
  const full = slug(conventional ? `${conventional[2] ?? ''} ${conventional[3]}` : subject)
  // Cut between words: a branch name is read, not parsed.
  const cut = full.length <= MAX_BRANCH_WORDS ? full : full.slice(0, MAX_BRANCH_WORDS + 1).replace(/-[^-]*$/, '')
  const words = cut || 'change'
  const type = conventional ? slug(conventional[1]) : ''
  return type ? `${type}/${words}` : words
}

/** `name`, or `name-2`, `name-3`... whichever no branch has yet. */
export async function freeBranchName(repo: Repository, name: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${name}-${n}`
    if (!(await branchExists(repo, candidate))) return candidate
  }
}
