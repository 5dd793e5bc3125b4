import {stat} from 'node:fs/promises'

import {type ToolDefinition, toolOk} from '@hanzo-dev/sdk'

import {FileWalk, type WalkedFile, WALK_MAX_ENTRIES, WALK_RULES} from './file-walk.js'
import {objectSchema, pathProperty} from './input-schema.js'
import {compileGlob, relativeTo, SEARCH_PATH_NOTE} from './search-scope.js'
import {type LineMatch, RegexTimeoutError, RegexWorker} from './regex-worker.js'
import {HardLinkedFile, looksBinary, openRegularFile, readUpTo} from './text-file.js'
import {failureResult, ToolFailure} from './tool-failure.js'
import {resolveInWorkspace, workspaceRoot} from './workspace-path.js'

export type GrepOutputMode = 'content' | 'files_with_matches' | 'count'

export type FsGrepInput = {
  pattern: string
  path?: string
  glob?: string
  case_insensitive?: boolean
  output_mode?: GrepOutputMode
}

/** Larger files (logs, bundles, data) are skipped and counted rather than searched. */
export const GREP_MAX_FILE_BYTES = 1024 * 1024
/** Matching lines printed in `content` mode; the rest are counted. */
export const GREP_MAX_LINES = 500
/** Files listed in `files_with_matches` and `count` modes; the rest are counted. */
export const GREP_MAX_FILES = 1000
/** Characters shown of one matching line, around the match. */
export const GREP_MAX_LINE_CHARS = 500
/** Time the pattern may take to match, over all files of one search (see regex-worker.ts). */
export const GREP_REGEX_LIMIT_MS = 10_000
/** Text read ahead while earlier files are being matched. */
const GREP_MAX_WAITING_CHARS = 8 * 1024 * 1024
/** Files sent to the regex worker at a time: one message per file would cost more than matching small files. */
const GREP_BATCH_FILES = 32
const GREP_BATCH_CHARS = 256 * 1024

export const fsGrep: ToolDefinition<FsGrepInput> = {
  name: 'fs_grep',
  description: [
    'Search the contents of files in the workspace with a JavaScript regular expression, line by line.',
    'output_mode `content` (the default) prints `path:line:text` for each matching line; `files_with_matches` lists the files that match; `count` prints `path:count` for each file.',
    WALK_RULES,
    `Binary files, files over ${GREP_MAX_FILE_BYTES / 1024 / 1024} MB and files with more than one hard link are skipped.`,
    `At most ${GREP_MAX_LINES} lines (or ${GREP_MAX_FILES} files) are printed, each line cut to ${GREP_MAX_LINE_CHARS} characters around the match, with a count of the rest.`,
    `A pattern that takes more than ${GREP_REGEX_LIMIT_MS / 1000} s to match (nested quantifiers such as (a+)+ on long lines) is stopped with an error.`,
    'Narrow a search with path and glob; find files by name with fs_glob.',
  ].join(' '),
  inputSchema: objectSchema(
    {
      pattern: {type: 'string', minLength: 1, description: 'A JavaScript regular expression without slashes or flags, e.g. `function\\s+load\\w*` or `TODO|FIXME`. Escape regex characters to search for them literally.'},
      path: pathProperty('A file or directory to search', SEARCH_PATH_NOTE),
      glob: {type: 'string', minLength: 1, description: 'Only search files whose path (relative to path) matches this glob, e.g. `*.ts`, `*.{ts,tsx}` or `src/**/*.test.ts`. A glob without `/` matches the file name at any depth.'},
      case_insensitive: {type: 'boolean', description: 'Match letters regardless of case. Defaults to false.'},
      output_mode: {type: 'string', enum: ['content', 'files_with_matches', 'count'], description: 'What to print: matching lines (`content`, the default), the matching files, or the number of matching lines per file.'},
    },
    ['pattern'],
  ),
  mutating: false,
  async execute(input, context) {
    let matcher: RegexWorker | undefined
    try {
      const flags = regexFlags(input.pattern, input.case_insensitive === true)
      const root = await workspaceRoot(context.cwd)
      const target = await resolveInWorkspace(root, input.path ?? '.')
      const report = new GrepReport(input.output_mode ?? 'content')
      let walk: FileWalk | undefined
      let files: AsyncIterable<WalkedFile> | WalkedFile[]
      if ((await stat(target.absolute)).isDirectory()) {
        walk = new FileWalk({root, signal: context.signal, start: target.absolute})
        files = filterByGlob(walk.files(), input.glob, (relative) => relativeTo(target, relative))
      } else {
        files = [{absolute: target.absolute, relative: target.relative}]
      }

      matcher = RegexWorker.open(input.pattern, flags, {limitMs: GREP_REGEX_LIMIT_MS, signal: context.signal})
      const search = new MatchQueue(matcher, report, input.pattern, context.signal)
      for await (const file of files) {
        let text: string | undefined
        try {
          text = await readSearchable(file, report)
        } catch (error) {
          // One unreadable or hard-linked file (permissions, deleted meanwhile) does not spoil a tree search.
          if (walk === undefined) throw error
          if (error instanceof HardLinkedFile) report.skippedLinked++
          else if (typeof (error as NodeJS.ErrnoException).code === 'string') report.skippedUnreadable++
          else throw error
        }

        if (text !== undefined) await search.add(file, text)
      }

      await search.finish()
      return toolOk(report.render(input.pattern, target.relative, walk?.truncated === true))
    } catch (error) {
      return failureResult(error, input.path ?? '.')
    } finally {
      matcher?.close()
    }
  },
}

/** The model's pattern's flags: Unicode mode first (`\p{L}` works), the legacy syntax when only that parses. */
function regexFlags(pattern: string, caseInsensitive: boolean): string {
  const flags = caseInsensitive ? 'i' : ''
  try {
    new RegExp(pattern, `${flags}u`)
    return `${flags}u`
  } catch {
    try {
      new RegExp(pattern, flags)
      return flags
    } catch (error) {
      throw new ToolFailure(`pattern is not a valid JavaScript regular expression: ${(error as Error).message}`)
    }
  }
}

async function* filterByGlob(files: AsyncIterable<WalkedFile>, glob: string | undefined, toSearchRelative: (relative: string) => string): AsyncGenerator<WalkedFile> {
  // As in ripgrep's --glob: a glob without a slash is about the file name wherever the file is.
  const matches = glob === undefined ? undefined : compileGlob(glob, {basename: !glob.includes('/'), dot: true})
  for await (const file of files) if (!matches || matches(toSearchRelative(file.relative))) yield file
}

/** A file's text, or `undefined` (counted in the report) when it is too large or binary. */
async function readSearchable(file: WalkedFile, report: GrepReport): Promise<string | undefined> {
  const {handle, size} = await openRegularFile(file.absolute, file.relative)
  let bytes: Buffer | undefined
  try {
    bytes = size > GREP_MAX_FILE_BYTES ? undefined : await readUpTo(handle, GREP_MAX_FILE_BYTES, size)
  } finally {
    await handle.close()
  }

  if (bytes === undefined) {
    report.skippedLarge++
    return undefined
  }

  if (looksBinary(bytes)) {
    report.skippedBinary++
    return undefined
  }

  return bytes.toString('utf8')
}

interface Batch {
  files: WalkedFile[]
  texts: string[]
  chars: number
}

/**
 * Texts out for matching, in batches: the next files are read meanwhile, and the results go to the
 * report in file order.
 */
class MatchQueue {
  private batch: Batch = {chars: 0, files: [], texts: []}
  private readonly sent: Array<Batch & {matches: Promise<LineMatch[][]>}> = []
  private waitingChars = 0

  constructor(
    private readonly matcher: RegexWorker,
    private readonly report: GrepReport,
    private readonly pattern: string,
    private readonly signal: AbortSignal,
  ) {}

  async add(file: WalkedFile, text: string): Promise<void> {
    this.batch.files.push(file)
    this.batch.texts.push(text)
    this.batch.chars += text.length
    this.waitingChars += text.length
    if (this.batch.texts.length === GREP_BATCH_FILES || this.batch.chars >= GREP_BATCH_CHARS) this.send()
    while (this.waitingChars > GREP_MAX_WAITING_CHARS) await this.takeOldest()
  }

  async finish(): Promise<void> {
    this.send()
    while (this.sent.length > 0) await this.takeOldest()
  }

  private send(): void {
    if (this.batch.texts.length === 0) return
    this.sent.push({...this.batch, matches: this.matcher.match(this.batch.texts)})
    this.batch = {chars: 0, files: [], texts: []}
  }

  private async takeOldest(): Promise<void> {
    if (this.sent.length === 0) this.send()
    const {chars, files, matches, texts} = this.sent.shift()!
    this.waitingChars -= chars
    let found: LineMatch[][]
    try {
      found = await matches
    } catch (error) {
      if (error instanceof RegexTimeoutError) {
        throw new ToolFailure(
          `/${this.pattern}/ used up its ${error.limitMs / 1000} s of matching (it was on ${files[error.index].relative}), so the search was stopped: nested quantifiers such as (a+)+ take exponential time on long lines. Simplify the pattern, or narrow path or glob.`,
        )
      }

      // Cancelled: the pipeline says so. Anything else is the engine's own failure (its backtracking stack overflowed).
      if (this.signal.aborted) throw error
      throw new ToolFailure(`/${this.pattern}/ could not be matched: ${(error as Error).message}`)
    }

    for (const [i, lines] of found.entries()) {
      for (const match of lines) this.report.add(files[i].relative, match.line + 1, texts[i].slice(match.start, match.end), match.at)
    }
  }
}

/** What a search found, kept within the caps: what is past them is only counted. */
class GrepReport {
  skippedBinary = 0
  skippedLarge = 0
  skippedUnreadable = 0
  skippedLinked = 0
  private readonly printed: string[] = []
  private readonly counts = new Map<string, number>()
  private matchingLines = 0
  private matchingFiles = 0
  private lastPath: string | undefined

  constructor(private readonly mode: GrepOutputMode) {}

  /** One matching line; the lines of a file come one after the other. */
  add(path: string, lineNumber: number, line: string, at: number): void {
    this.matchingLines++
    if (path !== this.lastPath) {
      this.lastPath = path
      this.matchingFiles++
    }

    if (this.mode === 'content') {
      if (this.printed.length < GREP_MAX_LINES) this.printed.push(`${path}:${lineNumber}:${excerpt(line, at)}`)
    } else if (this.counts.has(path) || this.counts.size < GREP_MAX_FILES) {
      this.counts.set(path, (this.counts.get(path) ?? 0) + 1)
    }
  }

  render(pattern: string, where: string, truncated: boolean): string {
    const notes: string[] = []
    let body: string
    if (this.mode === 'content') {
      body = this.printed.join('\n')
      const rest = this.matchingLines - this.printed.length
      if (rest > 0) notes.push(`… and ${plural(rest, 'more matching line')} (narrow the pattern, path or glob, or use output_mode count)`)
    } else {
      body = [...this.counts].map(([path, count]) => (this.mode === 'count' ? `${path}:${count}` : path)).join('\n')
      const rest = this.matchingFiles - this.counts.size
      if (rest > 0) notes.push(`… and ${plural(rest, 'more matching file')} (narrow the pattern, path or glob)`)
      if (this.mode === 'count') notes.push(`${plural(this.matchingLines, 'matching line')} in ${plural(this.matchingFiles, 'file')}`)
    }

    if (this.skippedLarge > 0) notes.push(`${plural(this.skippedLarge, 'file')} over ${GREP_MAX_FILE_BYTES / 1024 / 1024} MB not searched`)
    if (this.skippedBinary > 0) notes.push(`${plural(this.skippedBinary, 'binary file')} skipped`)
    if (this.skippedUnreadable > 0) notes.push(`${plural(this.skippedUnreadable, 'file')} could not be read`)
    if (this.skippedLinked > 0) notes.push(`${plural(this.skippedLinked, 'file')} with other hard links (maybe outside the workspace) not searched`)
    if (truncated) notes.push(`The search stopped after ${WALK_MAX_ENTRIES} entries, so it is incomplete; search a narrower path.`)
    if (this.matchingLines === 0) body = `No matches for /${pattern}/ in ${where}.`
    return [body, ...notes.map((note) => `[${note}]`)].join('\n')
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

/** A line cut to {@link GREP_MAX_LINE_CHARS} characters, keeping the match in view (minified files have one long line). */
function excerpt(line: string, at: number): string {
  if (line.length <= GREP_MAX_LINE_CHARS) return line
  const start = Math.max(0, Math.min(at - 100, line.length - GREP_MAX_LINE_CHARS))
  const end = start + GREP_MAX_LINE_CHARS
  return `${start > 0 ? `[… ${start} characters] ` : ''}${line.slice(start, end)}${end < line.length ? ` [… ${line.length - end} more characters]` : ''}`
}
