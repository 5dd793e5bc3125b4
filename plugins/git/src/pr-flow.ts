import {GitError, git} from './git-cli.js'
import {branchFromMessage, createBranch, freeBranchName} from './branches.js'
import {type CommitOptions, type CommitResult, commitChanges, note} from './commit-flow.js'
import type {MessageWriter} from './model-session.js'
import {
  baseBranch,
  branchCommits,
  createPullRequest,
  ghReady,
  type PullRequestOutcome,
  PULL_REQUEST_PROMPT,
  writePullRequest,
} from './pull-request.js'
import {pushHead, REMOTE, remoteUrl} from './push.js'
import {compareUrl} from './remote-url.js'
import {readRepository, type Repository} from './repository.js'

export interface PrOptions extends Omit<CommitOptions, 'beforeCommit' | 'retryCommand' | 'message' | 'file' | 'amend'> {
  base?: string
  draft: boolean
  title?: string
  body?: string
  /** Asks for the branch to make on the default branch or a detached HEAD (default name given); undefined declines. */
  askBranch?(suggested: string, from: string): Promise<string | undefined>
}

export interface PrResult {
  commit: CommitResult
  branch: string
  base: string
  remote: string
  pushed: boolean
  pullRequest: PullRequestOutcome & {title?: string; body?: string; compareUrl?: string}
}

/**
 * `hanzo-dev commit-push-pr`: commit (as `commit` does), push the branch, open the pull request
 * with gh. On the default branch or a detached HEAD the commit goes on a new branch named for
 * its message. Without gh, or logged out of it, the commit and push still happen and the result
 * carries the compare URL. Nothing is pushed when there is nothing to commit and nothing ahead.
 */
export async function commitPushPr(repo: Repository, options: PrOptions): Promise<PrResult> {
  const remote = await remoteUrl(repo)
  const base = await baseBranch(repo, options.base)
  const onBase = !repo.branch || repo.branch === base
  const commit = await commitChanges(repo, {
    ...options,
    amend: false,
    async beforeCommit(message) {
      if (!onBase) return
      const suggested = await freeBranchName(repo, branchFromMessage(message))
      const from = repo.branch ?? 'a detached HEAD'
      const name =
        options.yes || !options.interactive || !options.askBranch ? suggested : await options.askBranch(suggested, from)
      if (!name)
        throw new GitError(
          `Cancelled: a pull request needs its own branch, not ${from}; nothing was committed, and the index is as it was`,
          {exitCode: 130},
        )
      await createBranch(repo, name)
      note(options, `Created the branch ${name} (from ${from}) for the pull request.`)
    },
    retryCommand: (file) => `hanzo-dev commit -F ${file}, then hanzo-dev commit-push-pr`,
  })

  const now = (await readRepository(repo.context)) ?? repo
  const branch = now.branch
  if (!commit.committed && (!branch || branch === base || !(await aheadOfBase(repo, base)))) {
    return {
      base,
      branch: branch ?? 'HEAD',
      commit,
      pullRequest: {reason: 'nothing to commit or push', status: 'skipped'},
      pushed: false,
      remote: REMOTE,
    }
  }

  const at = {...repo, ...now}
  const sha = (await git(['rev-parse', 'HEAD'], repo.context)).stdout.trim()
  await pushHead(at, {interactive: options.interactive, sha})
  const compare = compareUrl(remote, base, branch as string)
  const ready = await ghReady(repo)
  if (!ready.gh || ready.status)
    return {
      base,
      branch: branch as string,
      commit,
      pullRequest: {compareUrl: compare, reason: ready.reason, status: ready.status ?? 'no-gh'},
      pushed: true,
      remote: REMOTE,
    }

  let text: {title: string; body: string}
  try {
    text =
      options.title && options.body !== undefined
        ? {body: options.body, title: options.title}
        : await pullRequestText(repo, options, base)
  } catch (error) {
    // The branch is pushed: the compare URL still opens the pull request by hand.
    if (!(error instanceof GitError)) throw error
    return {
      base,
      branch: branch as string,
      commit,
      pullRequest: {compareUrl: compare, reason: error.message, status: 'failed'},
      pushed: true,
      remote: REMOTE,
    }
  }

  const outcome = await createPullRequest(repo, ready.gh, {
    base,
    body: text.body,
    branch: branch as string,
    draft: options.draft,
    title: text.title,
  })
  return {
    base,
    branch: branch as string,
    commit,
    pullRequest: {...outcome, ...text, compareUrl: compare},
    pushed: true,
    remote: REMOTE,
  }
}

async function pullRequestText(
  repo: Repository,
  options: PrOptions,
  base: string,
): Promise<{title: string; body: string}> {
  let writer: MessageWriter | undefined
  try {
    writer = await options.openWriter(PULL_REQUEST_PROMPT)
    const written = await writePullRequest(writer, await branchCommits(repo, base), base)
    return {body: options.body ?? written.body, title: options.title ?? written.title}
  } finally {
    await writer?.close()
  }
}

/** Whether HEAD has commits the remote's `base` has not (what a pull request would hold). */
async function aheadOfBase(repo: Repository, base: string): Promise<boolean> {
  const known = await git(['rev-parse', '--verify', '--quiet', `refs/remotes/${REMOTE}/${base}`], repo.context)
  if (!known.ok) return true
  const count = await git(['rev-list', '--count', `refs/remotes/${REMOTE}/${base}..HEAD`], repo.context)
  return Number(count.stdout.trim()) > 0
}
