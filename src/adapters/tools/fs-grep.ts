import {closeSync} from 'node:fs'
import {stat} from 'node:fs/promises'

import {type ToolDefinition, toolOk} from '@hanzo-dev/sdk'

import {FileWalk, type WalkedFile, WALK_RULES} from './file-walk.js'
import {
  GREP_MAX_FILE_BYTES,
  GREP_MAX_FILES,
  GREP_MAX_LINE_CHARS,
  GREP_MAX_LINES,
  GrepReport,
  type GrepOutputMode,
} from './grep-report.js'
import {grepWithRipgrep} from './grep-ripgrep.js'
import {objectSchema, pathProperty} from './input-schema.js'
import {pathLocations, pathSubject} from './path-call.js'
import {type LineMatch, RegexTimeoutError, RegexWorker} from './regex-worker.js'
import {fileNameGlob, ripgrep} from './ripgrep.js'
import {toRustRegex} from './rust-regex.js'
import {compileGlob, relativeTo, SEARCH_PATH_NOTE} from './search-scope.js'
import {HardLinkedFile, looksBinary, openRegularFileSync, readUpToSync} from './text-file.js'
import {failureResult, ToolFailure} from './tool-failure.js'
import {resolveInWorkspace, workspaceRoot} from './workspace-path.js'

export {
  GREP_MAX_FILE_BYTES,
  GREP_MAX_FILES,
  GREP_MAX_LINE_CHARS,
  GREP_MAX_LINES,
  type GrepOutputMode,
} from './grep-report.js'

export type FsGrepInput = {
  pattern: string
  path?: string
  glob?: string
  case_insensitive?: boolean
  output_mode?: GrepOutputMode
}

/** Time the pattern may take to match, over all files of one search (see regex-worker.ts). */
export const GREP_REGEX_LIMIT_MS = 10_000
/** Text read ahead while earlier files are being matched. */
const GREP_MAX_WAITING_CHARS = 8 * 1024 * 1024
/** Files sent to the regex worker at a time: one message per file would cost more than matching small files. */
const GREP_BATCH_FILES = 32
const GREP_BATCH_CHARS = 256 * 1024

export interface FsGrepOptions {
  /** The pattern's time to match, over all files of one search; default {@link GREP_REGEX_LIMIT_MS}. */
  regexLimitMs?: number
}

/** fs_grep with its limits; {@link fsGrep} is the one with the defaults. */
export function fsGrepTool(options: FsGrepOptions = {}): ToolDefinition<FsGrepInput> {
  const regexLimitMs = options.regexLimitMs ?? GREP_REGEX_LIMIT_MS
  return {
    name: 'fs_grep',
    aliases: ['Grep'],
    description: [
      'Search the contents of files in the workspace with a JavaScript regular expression, line by line.',
      'output_mode `content` (the default) prints `path:line:text` for each matching line; `files_with_matches` lists the files that match; `count` prints `path:count` for each file.',
      WALK_RULES,
      `Binary files, files over ${GREP_MAX_FILE_BYTES / 1024 / 1024} MB and files with more than one hard link are skipped.`,
      `At most ${GREP_MAX_LINES} lines (or ${GREP_MAX_FILES} files) are printed, each line cut to ${GREP_MAX_LINE_CHARS} characters around the match, with a count of the rest.`,
      `A pattern that takes more than ${regexLimitMs / 1000} s to match (nested quantifiers such as (a+)+ on long lines) is stopped with an error.`,
      'Narrow a search with path and glob; find files by name with fs_glob.',
    ].join(' '),
    inputSchema: objectSchema(
      {
        pattern: {
          type: 'string',
          minLength: 1,
          description:
            'A JavaScript regular expression without slashes or flags, e.g. `function\\s+load\\w*` or `TODO|FIXME`. Escape regex characters to search for them literally.',
        },
        path: pathProperty('A file or directory to search', SEARCH_PATH_NOTE),
        glob: {
          type: 'string',
          minLength: 1,
          description:
            'Only search files whose path (relative to path) matches this glob, e.g. `*.ts`, `*.{ts,tsx}` or `src/**/*.test.ts`. A glob without `/` matches the file name at any depth.',
        },
        case_insensitive: {type: 'boolean', description: 'Match letters regardless of case. Defaults to false.'},
        output_mode: {
          type: 'string',
          enum: ['content', 'files_with_matches', 'count'],
          description:
            'What to print: matching lines (`content`, the default), the matching files, or the number of matching lines per file.',
        },
      },
      ['pattern'],
    ),
    mutating: false,
    kind: 'read',
    subject: pathSubject,
    describe: (input) => (input.path === undefined ? `/${input.pattern}/` : `/${input.pattern}/ in ${input.path}`),
    locations: pathLocations,
    async execute(input, context) {
      let matcher: RegexWorker | undefined
      try {
        const flags = regexFlags(input.pattern, input.case_insensitive === true)
        const root = await workspaceRoot(context.cwd)
        const target = await resolveInWorkspace(root, input.path ?? '.', context.hiddenPaths)
        const report = new GrepReport(input.output_mode ?? 'content')
        let walk: FileWalk | undefined
        let files: AsyncIterable<WalkedFile> | WalkedFile[]
        if ((await stat(target.absolute)).isDirectory()) {
          const inGlob = globFilter(input.glob)
          const rg = ripgrep()
          const pattern = rg === undefined ? undefined : toRustRegex(input.pattern, flags)
          const want =
            input.output_mode === 'files_with_matches' ? 'files' : input.output_mode === 'count' ? 'count' : 'lines'
          const search = {
            hidden: context.hiddenPaths,
            inGlob,
            names: input.glob === undefined ? undefined : fileNameGlob(input.glob),
            report,
            root,
            signal: context.signal,
            target,
            want,
          } as const
          if (rg !== undefined && pattern !== undefined && (await grepWithRipgrep({...search, pattern, rg}))) {
            return toolOk(report.render(input.pattern, target.relative, false), {kind: 'read', matches: report.found})
          }

          walk = new FileWalk({hidden: context.hiddenPaths, root, signal: context.signal, start: target.absolute})
          files = filterByGlob(walk.files(), inGlob, (relative) => relativeTo(target, relative))
        } else {
          files = [{absolute: target.absolute, relative: target.relative}]
        }

        matcher = RegexWorker.open(input.pattern, flags, {limitMs: regexLimitMs, signal: context.signal})
        const search = new MatchQueue(matcher, report, input.pattern, context.signal)
        for await (const file of files) {
          let text: string | undefined
          try {
            text = readSearchable(file, walk === undefined)
          } catch (error) {
            // One unreadable or hard-linked file (permissions, deleted meanwhile) does not spoil a tree search.
            if (
              walk === undefined ||
              !(error instanceof HardLinkedFile || typeof (error as NodeJS.ErrnoException).code === 'string')
            )
              throw error
          }

          if (text !== undefined) await search.add(file, text)
        }

        await search.finish()
        return toolOk(report.render(input.pattern, target.relative, walk?.truncated === true), {
          kind: 'read',
          matches: report.found,
        })
      } catch (error) {
        return failureResult(error, input.path ?? '.')
      } finally {
        matcher?.close()
      }
    },
  }
}

export const fsGrep = fsGrepTool()

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

/** Whether a path (relative to the search directory) is in `glob`; everything is without one. */
function globFilter(glob: string | undefined): (relative: string) => boolean {
  // As in ripgrep's --glob: a glob without a slash is about the file name wherever the file is.
  return glob === undefined ? () => true : compileGlob(glob, {basename: !glob.includes('/'), dot: true})
}

async function* filterByGlob(
  files: AsyncIterable<WalkedFile>,
  inGlob: (relative: string) => boolean,
  toSearchRelative: (relative: string) => string,
): AsyncGenerator<WalkedFile> {
  for await (const file of files) if (inGlob(toSearchRelative(file.relative))) yield file
}

/**
 * A file's text, or `undefined` when it is too large or binary (an error when it is the file the
 * model named). Read synchronously: a promise per step costs more than reading a small file.
 */
function readSearchable(file: WalkedFile, named: boolean): string | undefined {
  const {fd, size} = openRegularFileSync(file.absolute, file.relative)
  let bytes: Buffer | undefined
  try {
    bytes = size > GREP_MAX_FILE_BYTES ? undefined : readUpToSync(fd, GREP_MAX_FILE_BYTES, size)
  } finally {
    closeSync(fd)
  }

  if (bytes === undefined) {
    if (named)
      throw new ToolFailure(
        `${file.relative} is over ${GREP_MAX_FILE_BYTES / 1024 / 1024} MB, more than fs_grep searches; read parts of it with fs_read`,
      )
    return undefined
  }

  if (looksBinary(bytes)) {
    if (named)
      throw new ToolFailure(`${file.relative} is a binary file (it has a NUL byte); fs_grep searches text files`)
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
      for (const match of lines)
        this.report.add(files[i].relative, match.line + 1, texts[i].slice(match.start, match.end), match.at)
    }
  }
}
