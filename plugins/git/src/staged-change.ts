import {basename} from 'node:path'

import {gitOutput, git} from './git-cli.js'
import type {Repository} from './repository.js'

/** One file of the staged change, as `git diff --cached --name-status --numstat` describes it. */
export interface ChangedFile {
  path: string
  /** A rename's or copy's source. */
  from?: string
  /** git's status letter: A, M, D, R, C, T. */
  status: string
  /** Lines added and deleted; absent for a binary file. */
  added?: number
  deleted?: number
  binary: boolean
  /** A package manager's lock file: summarized, never pasted (its diff is long and says little). */
  lock: boolean
}

export interface StagedChange {
  files: ChangedFile[]
  /** The diff of the text files that are not lock files, cut to fit the model's context. */
  diff: string
  /** Something of the diff was left out. */
  truncated: boolean
}

/** A reply is a few lines; the diff it is written from has room for the gist of a large change, not all of it. */
export const MAX_DIFF_CHARS = 60_000
/** No one file may take the whole budget: the others still get a look. */
export const MAX_FILE_DIFF_CHARS = 12_000
/** A file with more changed lines than this is read on its own (capped), so it cannot crowd out the rest. */
const LARGE_FILE_LINES = 400
/** git is stopped after this much: a 5 MB diff is never read whole. */
const READ_CHARS = MAX_DIFF_CHARS * 4

const LOCK_FILES = new Set([
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'bun.lockb',
  'bun.lock',
  'deno.lock',
  'Cargo.lock',
  'Gemfile.lock',
  'composer.lock',
  'poetry.lock',
  'Pipfile.lock',
  'uv.lock',
  'pdm.lock',
  'go.sum',
  'flake.lock',
  'mix.lock',
  'pubspec.lock',
  'Podfile.lock',
  'packages.lock.json',
  'gradle.lockfile',
])

export function isLockFile(path: string): boolean {
  return LOCK_FILES.has(basename(path))
}

const DIFF_FLAGS = ['--no-ext-diff', '--no-textconv', '--no-color', '--find-renames', '--no-relative']

/**
 * The staged change: against HEAD, or against `base` (`--amend` describes the whole amended
 * commit, so its base is HEAD's parent).
 */
export function readStagedChange(repo: Repository, base?: string): Promise<StagedChange> {
  return readChange(repo, ['--cached', ...(base ? [base] : [])])
}

/** A change as `git diff RANGE...` reads it (`--cached`, a commit to compare the working tree with), capped the same way. */
export async function readChange(
  repo: Repository,
  which: string[],
  paths: readonly string[] = [],
): Promise<StagedChange> {
  const range = [...DIFF_FLAGS, ...which]
  const [names, counts] = await Promise.all([
    gitOutput(['diff', ...range, '--name-status', '-z', '--', ...paths], repo.context, 'Cannot read the change'),
    gitOutput(['diff', ...range, '--numstat', '-z', '--', ...paths], repo.context, 'Cannot read the change'),
  ])
  const files = parseNameStatus(names)
  const numbers = parseNumstat(counts)
  for (const [i, file] of files.entries()) Object.assign(file, numbers[i] ?? {binary: false})

  // A large file is read on its own, after the others: it can take its share, never the whole diff.
  const text = files.filter((f) => !f.lock && !f.binary)
  const large = text.filter((f) => (f.added ?? 0) + (f.deleted ?? 0) > LARGE_FILE_LINES)
  const skipped = [...files.filter((f) => f.lock), ...large].map((f) => `:(top,exclude,literal)${f.path}`)
  let diff = ''
  let truncated = false
  if (text.length > large.length || files.some((f) => f.binary)) {
    const read = await readDiff(repo, [...range, '--', ...paths, ...skipped], READ_CHARS)
    const capped = capDiff(read.text)
    diff = capped.diff
    truncated = capped.truncated || read.truncated
  }

  for (const [i, file] of large.entries()) {
    const room = MAX_DIFF_CHARS - diff.length
    if (room <= 0) {
      diff += `[${large.length - i} more large file(s) not shown: the diff is cut at ${MAX_DIFF_CHARS} characters]\n`
      return {diff, files, truncated: true}
    }

    const read = await readDiff(repo, [...range, '--', `:(top,literal)${file.path}`], MAX_FILE_DIFF_CHARS * 2)
    const capped = capDiff(read.text, room)
    diff += capped.diff
    truncated ||= capped.truncated || read.truncated
  }

  return {diff, files, truncated}
}

async function readDiff(
  repo: Repository,
  args: string[],
  maxChars: number,
): Promise<{text: string; truncated: boolean}> {
  const read = await git(['diff', ...args], repo.context, {maxChars})
  if (!read.ok && !read.truncated) throw new Error(`Cannot read the staged diff: ${read.stderr.trim()}`)
  return {text: read.stdout, truncated: read.truncated}
}

/** `--name-status -z`: `M\0path\0`, a rename or copy `R100\0from\0to\0`. */
export function parseNameStatus(text: string): ChangedFile[] {
  const parts = text.split('\0')
  const files: ChangedFile[] = []
  for (let i = 0; i < parts.length - 1;) {
    const status = parts[i++]
    if (status === '') continue
    const letter = status[0]
    if (letter === 'R' || letter === 'C') {
      const from = parts[i++]
      const path = parts[i++]
      files.push({binary: false, from, lock: isLockFile(path), path, status: letter})
    } else {
      const path = parts[i++]
      files.push({binary: false, lock: isLockFile(path), path, status: letter})
    }
  }

  return files
}

/** `--numstat -z`: `added\tdeleted\tpath\0`, a rename `added\tdeleted\t\0from\0to\0`; `-\t-` for a binary file. */
function parseNumstat(text: string): Array<Pick<ChangedFile, 'added' | 'deleted' | 'binary'>> {
  const parts = text.split('\0')
  const counts: Array<Pick<ChangedFile, 'added' | 'deleted' | 'binary'>> = []
  for (let i = 0; i < parts.length - 1;) {
    const [added, deleted, path] = parts[i++].split('\t')
    if (added === undefined || deleted === undefined) continue
    if (path === '') i += 2
    counts.push(added === '-' ? {binary: true} : {added: Number(added), binary: false, deleted: Number(deleted)})
  }

  return counts
}

/** The diff cut per file and in all, each cut said where it is. */
export function capDiff(
  diff: string,
  total = MAX_DIFF_CHARS,
  perFile = MAX_FILE_DIFF_CHARS,
): {diff: string; truncated: boolean} {
  const sections = diff.split(/^(?=diff --git )/m).filter(Boolean)
  let out = ''
  let truncated = false
  for (const [i, section] of sections.entries()) {
    const room = total - out.length
    // Too little room for a file's header and a hunk: saying it was left out reads better than a stub.
    if (room <= 0 || (section.length > room && room < 200)) {
      out += `[${sections.length - i} more file(s) not shown: the diff is cut at ${total} characters]\n`
      return {diff: out, truncated: true}
    }

    const limit = Math.min(perFile, room)
    if (section.length <= limit) {
      out += section
      continue
    }

    truncated = true
    out += `${section.slice(0, limit).replace(/[^\n]*$/, '')}[the rest of this file's diff is cut: ${section.length - limit} more characters]\n`
  }

  return {diff: out, truncated}
}

/** The change as the model is given it: the file list, then the diff of what is worth reading. */
export function describeChange(change: StagedChange): string {
  const list = change.files.map(
    (file) => `${file.status} ${file.from ? `${file.from} -> ` : ''}${file.path} (${fileNote(file)})`,
  )
  const parts = [`Files changed (${change.files.length}):\n${list.join('\n')}`]
  if (change.diff)
    parts.push(
      `The diff${change.truncated ? ' (cut: a large change; the file list above is complete)' : ''}:\n${change.diff}`,
    )
  return parts.join('\n\n')
}

function fileNote(file: ChangedFile): string {
  if (file.binary) return 'binary file'
  const lines = `+${file.added ?? 0} -${file.deleted ?? 0}`
  return file.lock ? `lock file, ${lines}, diff not shown` : lines
}
