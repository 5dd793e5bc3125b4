import {findExecutable} from '@hanzo-dev/sdk'

import {askModel} from './commit-message.js'
import {git} from './git-cli.js'
import type {MessageWriter} from './model-session.js'
import {REMOTE} from './push.js'
import type {Repository} from './repository.js'

export const PULL_REQUEST_PROMPT = `You write GitHub pull request descriptions from a branch's commits.
Answer with the title on the first line (at most 72 characters, plain text, no "Title:" and no #), then a blank line, then the body in Markdown: a short summary of what changes and why, then a "## Changes" list. Never invent what the commits do not say.`

/** The branch a pull request goes into: --base, else the remote's default branch (origin/HEAD, else asked of the remote), else main. */
export async function baseBranch(repo: Repository, given?: string): Promise<string> {
  if (given) return given
  const local = await git(['symbolic-ref', '--quiet', '--short', `refs/remotes/${REMOTE}/HEAD`], repo.context)
  if (local.ok && local.stdout.trim()) return local.stdout.trim().replace(`${REMOTE}/`, '')
  const asked = await git(
    ['ls-remote', '--symref', REMOTE, 'HEAD'],
    {...repo.context, env: {...repo.context.env, GIT_TERMINAL_PROMPT: '0'}},
    {timeoutMs: 15_000},
  )
  const named = /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(asked.stdout)?.[1]
  return named ?? 'main'
}

/** The commits a pull request from HEAD into `base` holds, oldest first: subjects and bodies. */
export async function branchCommits(repo: Repository, base: string): Promise<string> {
  const remoteBase = `refs/remotes/${REMOTE}/${base}`
  const known = await git(['rev-parse', '--verify', '--quiet', remoteBase], repo.context)
  const range = known.ok ? [`${remoteBase}..HEAD`] : ['-1', 'HEAD']
  const log = await git(['log', '--reverse', '--format=%s%n%n%b%x1e', ...range], repo.context, {maxChars: 40_000})
  return log.stdout
    .split('\x1e')
    .map((c) => c.trim())
    .filter(Boolean)
    .map((c) => `- ${c.replaceAll('\n', '\n  ')}`)
    .join('\n')
}

/** The title and body the model writes from the branch's commits. */
export async function writePullRequest(
  writer: MessageWriter,
  commits: string,
  base: string,
): Promise<{title: string; body: string}> {
  const text = await writer.thinking((session) =>
    askModel(session, `Write the pull request into ${base} for these commits:\n\n${commits}`, 'pull request'),
  )
  const [first, ...rest] = text.split('\n')
  const title = first
    .replace(/^#+\s*/, '')
    .replace(/^title:\s*/i, '')
    .trim()
  return {body: rest.join('\n').trim(), title}
}

export type PullRequestStatus = 'created' | 'exists' | 'no-gh' | 'not-logged-in' | 'failed' | 'skipped'

export interface PullRequestOutcome {
  status: PullRequestStatus
  url?: string
  /** Why it was not created: gh's own words. */
  reason?: string
}

/** Whether `gh` can open the pull request: installed, and logged in. */
export async function ghReady(
  repo: Repository,
): Promise<{gh?: string; status?: 'no-gh' | 'not-logged-in'; reason?: string}> {
  const gh = await findExecutable('gh', {cwd: repo.root, env: repo.context.env})
  if (!gh) return {status: 'no-gh'}
  const {execa} = await import('execa')
  const auth = await execa(gh, ['auth', 'status'], {
    cwd: repo.root,
    env: repo.context.env as Record<string, string>,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  })
  if (auth.failed)
    return {
      gh,
      reason: String(auth.stderr || auth.stdout)
        .trim()
        .split('\n')[0],
      status: 'not-logged-in',
    }
  return {gh}
}

/** `gh pr create`; a pull request that already exists for the branch is reported with its URL. */
export async function createPullRequest(
  repo: Repository,
  gh: string,
  pr: {base: string; branch: string; title: string; body: string; draft: boolean},
): Promise<PullRequestOutcome> {
  const {execa} = await import('execa')
  const args = [
    'pr',
    'create',
    '--base',
    pr.base,
    '--head',
    pr.branch,
    '--title',
    pr.title,
    '--body',
    pr.body,
    ...(pr.draft ? ['--draft'] : []),
  ]
  const result = await execa(gh, args, {
    cwd: repo.root,
    env: {...repo.context.env, GH_PROMPT_DISABLED: '1'} as Record<string, string>,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  })
  const out = `${result.stdout}\n${result.stderr}`
  const url = /https?:\/\/\S+/.exec(String(result.stdout))?.[0]
  if (!result.failed) return {status: 'created', url}
  const existing = /already exists[^\n]*?(https?:\/\/\S+)/.exec(out)
  if (existing) return {status: 'exists', url: existing[1]}
  return {reason: String(result.stderr).trim().split('\n')[0] || `gh exited with ${result.exitCode}`, status: 'failed'}
}
