import {access, constants, readFile, rename, rm, writeFile} from 'node:fs/promises'
import {resolve} from 'node:path'
import {type Paint, printable} from '@hanzo-dev/sdk'

import {askModel, COMMIT_MESSAGE_PROMPT, commitMessagePrompt, REGENERATE_PROMPT} from './commit-message.js'
import {GitError, git, gitOutput} from './git-cli.js'
import {snapshotIndex} from './index-snapshot.js'
import {reviewMessage, type ReviewOptions} from './message-review.js'
import type {MessageWriter} from './model-session.js'
import {emptyTree, gitDirFile, readRepository, type Repository} from './repository.js'
import {describeChange, parseNameStatus, readStagedChange} from './staged-change.js'

/** Where a message waits for its commit: kept when a hook rejects the commit, for `commit -F`. */
export const MESSAGE_FILE = 'HANZO_COMMIT_MSG'

export interface CommitOptions {
  /** `-m`: the message, no model. */
  message?: string
  /** `-F`: the message from a file, no model. */
  file?: string
  /** Stage new files too, not only changes to tracked ones. */
  all: boolean
  amend: boolean
  /** Accept the model's message without asking. */
  yes: boolean
  noVerify: boolean
  /** stdin and stderr are a terminal. */
  interactive: boolean
  paint: Paint
  openWriter(systemPrompt: string): Promise<MessageWriter>
  /** Runs once the message is accepted, before the commit (commit-push-pr makes its branch here); throwing puts the index back. */
  beforeCommit?(message: string): Promise<void>
  /** What the hint after a rejected commit says to run (default: hanzo-dev commit -F FILE). */
  retryCommand?(file: string): string
  choose?: ReviewOptions['choose']
  /** Where what the user should know on the way goes (the new files staged); default stderr. The interactive prompt shows it in its own place. */
  note?(message: string): void
}

export interface CommittedFile {
  path: string
  status: string
  from?: string
}

export type CommitResult =
  | {committed: true; sha: string; branch: string | null; message: string; files: CommittedFile[]; amended: boolean}
  | {committed: false; reason: string; untracked: number}

/**
 * `hanzo-dev commit`: stage, write the message (the model's, reviewed by the user; or `-m`/`-F`),
 * commit with the repository's hooks. Until the commit is made, any way out (cancel, a failed
 * model call, Ctrl-C at the question, `beforeCommit` refusing) puts the index back as it was.
 */
export async function commitChanges(repo: Repository, options: CommitOptions): Promise<CommitResult> {
  if (options.amend && !repo.hasHead)
    throw new GitError('There is no commit to amend on this branch yet', {hint: 'commit without --amend'})
  const given = await givenMessage(options)
  const snapshot = await snapshotIndex(repo)
  let message: string
  try {
    await stage(repo, options)
    const base = options.amend ? await amendBase(repo) : undefined
    if (!options.amend && !(await hasStaged(repo))) {
      await snapshot.restore()
      const untracked = (await untrackedFiles(repo)).length
      return {committed: false, reason: 'nothing to commit', untracked}
    }

    message = given ?? (await writeMessage(repo, options, base))
    await options.beforeCommit?.(message)
  } catch (error) {
    await snapshot.restore()
    throw error
  }

  await snapshot.discard()
  return makeCommit(repo, message, options)
}

async function givenMessage(options: CommitOptions): Promise<string | undefined> {
  if (options.message !== undefined) {
    if (!options.message.trim()) throw new GitError('The message given with -m is empty', {exitCode: 2})
    return options.message.trim()
  }

  if (options.file === undefined) return undefined
  let text: string
  try {
    text = await readFile(resolve(options.file), 'utf8')
  } catch (error) {
    throw new GitError(
      `Cannot read the message file ${options.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      {exitCode: 2},
    )
  }

  if (!text.trim()) throw new GitError(`The message file ${options.file} is empty`, {exitCode: 2})
  return text.trim()
}

async function stage(repo: Repository, options: CommitOptions): Promise<void> {
  // `git add` would mark a file with conflict markers as resolved.
  const unmerged = (
    await gitOutput(['diff', '--name-only', '--diff-filter=U', '-z'], repo.context, 'Cannot read the index')
  )
    .split('\0')
    .filter(Boolean)
  if (unmerged.length > 0) {
    throw new GitError(
      `${unmerged.length} file(s) have unresolved conflicts: ${unmerged.slice(0, 5).join(', ')}${unmerged.length > 5 ? ', ...' : ''}`,
      {
        hint: 'resolve them and git add each one (or git merge --abort / git rebase --abort), then commit again',
      },
    )
  }

  if (options.all) {
    const added = await untrackedFiles(repo)
    if (added.length > 0) note(options, `Adding ${added.length} new file(s):\n${added.map((f) => `  ${f}`).join('\n')}`)
    await gitOutput(['add', '--all'], repo.context, 'Cannot stage the changes')
  } else {
    await gitOutput(['add', '--update'], repo.context, 'Cannot stage the changes')
  }
}

async function untrackedFiles(repo: Repository): Promise<string[]> {
  return (await gitOutput(['ls-files', '--others', '--exclude-standard', '-z'], repo.context, 'Cannot list new files'))
    .split('\0')
    .filter(Boolean)
}

async function hasStaged(repo: Repository): Promise<boolean> {
  const result = await git(['diff', '--cached', '--quiet'], repo.context)
  if (result.exitCode === 1) return true
  if (!result.ok) throw new GitError(`Cannot read the staged change: ${result.stderr.trim()}`)
  return false
}

/** What an amended commit is compared with: HEAD's parent, or the empty tree for a first commit. */
async function amendBase(repo: Repository): Promise<string> {
  const parent = await git(['rev-parse', '--verify', '--quiet', 'HEAD^'], repo.context)
  if (parent.ok) return parent.stdout.trim()
  return emptyTree(repo)
}

async function writeMessage(repo: Repository, options: CommitOptions, base: string | undefined): Promise<string> {
  const change = describeChange(await readStagedChange(repo, base))
  const amending = options.amend
    ? (await gitOutput(['log', '-1', '--format=%B'], repo.context, 'Cannot read the last commit')).trim()
    : undefined
  const writer = await options.openWriter(COMMIT_MESSAGE_PROMPT)
  try {
    const ask = (prompt: string) => writer.thinking((session) => askModel(session, prompt, 'commit message'))
    const first = await ask(commitMessagePrompt(change, {amending}))
    if (options.yes || !options.interactive) return first
    const accepted = await reviewMessage(first, {
      choose: options.choose,
      file: gitDirFile(repo, MESSAGE_FILE).path,
      paint: options.paint,
      regenerate: () => ask(REGENERATE_PROMPT),
      repo,
    })
    if (accepted === undefined)
      throw new GitError('Cancelled: nothing was committed, and the index is as it was', {exitCode: 130})
    return accepted
  } finally {
    await writer.close()
  }
}

async function makeCommit(repo: Repository, message: string, options: CommitOptions): Promise<CommitResult> {
  const file = gitDirFile(repo, MESSAGE_FILE)
  const temporary = `${file.path}.${process.pid}.tmp`
  await writeFile(temporary, `${message}\n`)
  await rename(temporary, file.path)
  const args = [
    'commit',
    '--file',
    file.path,
    ...(options.amend ? ['--amend'] : []),
    ...(options.noVerify ? ['--no-verify'] : []),
  ]
  // Hooks write to git's stderr (git sends their stdout there too): the user sees them as they run.
  // On a terminal a hook or a signing key's pinentry may ask the user something.
  // A caller that shows notes itself (the interactive prompt) gets the hooks' output as one, after: echoed, it would tear its screen.
  const result = await git(args, repo.context, {echoStderr: !options.note, inheritStdin: options.interactive})
  if (options.note && result.ok && result.stderr.trim()) options.note(result.stderr.trim())
  if (!result.ok) {
    const retry = options.retryCommand?.(file.shown) ?? `hanzo-dev commit -F ${file.shown}`
    const hook = (await hasCommitHook(repo)) && result.exitCode === 1
    throw new GitError(
      `${hook ? 'A commit hook rejected the commit' : `git commit failed: ${result.stderr.trim().split('\n').at(-1) ?? ''}`}; the message is kept in ${file.shown} and the changes stay staged`,
      {
        hint: `fix what ${hook ? 'the hook' : 'git'} reports, then run: ${retry} (or: git commit -F ${file.shown})`,
        // Not echoed as it ran (the interactive prompt captures it): what the hook said goes with the error.
        ...(options.note && result.stderr.trim() ? {output: lastLines(result.stderr.trim(), 20)} : {}),
      },
    )
  }

  await rm(file.path, {force: true})
  const sha = (await gitOutput(['rev-parse', 'HEAD'], repo.context, 'Cannot read the new commit')).trim()
  const listed = await gitOutput(
    ['diff-tree', '--root', '--no-commit-id', '-r', '-z', '--name-status', '--find-renames', 'HEAD'],
    repo.context,
    'Cannot list the commit',
  )
  const files = parseNameStatus(listed).map(({from, path, status}) => ({path, status, ...(from ? {from} : {})}))
  const now = await readRepository(repo.context)
  return {amended: Boolean(options.amend), branch: now?.branch ?? null, committed: true, files, message, sha}
}

/** Whether a hook that can reject a commit is installed (core.hooksPath honoured). */
async function hasCommitHook(repo: Repository): Promise<boolean> {
  const hooks = resolve(
    repo.root,
    (await gitOutput(['rev-parse', '--git-path', 'hooks'], repo.context, 'Cannot find the hooks')).trim(),
  )
  for (const name of ['pre-commit', 'prepare-commit-msg', 'commit-msg']) {
    if (
      await access(resolve(hooks, name), constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return true
  }

  return false
}

/** Tells the user something on the way, where the caller shows it; on stderr through the printer (it names files). */
export function note(options: Pick<CommitOptions, 'note'>, message: string): void {
  if (options.note) options.note(message)
  else process.stderr.write(`${printable(message)}\n`)
}

function lastLines(text: string, count: number): string {
  const lines = text.split('\n')
  return lines.length <= count
    ? text
    : [`[${lines.length - count} earlier lines not shown]`, ...lines.slice(-count)].join('\n')
}
