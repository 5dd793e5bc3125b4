import {WALK_MAX_ENTRIES} from './file-walk.js'

export type GrepOutputMode = 'content' | 'files_with_matches' | 'count'

/** Larger files (logs, bundles, data) are not searched. */
export const GREP_MAX_FILE_BYTES = 1024 * 1024
/** Matching lines printed in `content` mode; the rest are counted. */
export const GREP_MAX_LINES = 500
/** Files listed in `files_with_matches` and `count` modes; the rest are counted. */
export const GREP_MAX_FILES = 1000
/** Characters shown of one matching line, around the match. */
export const GREP_MAX_LINE_CHARS = 500

/**
 * What a search found, kept within the caps: what is past them is only counted. Files a tree
 * search leaves out (binary, over the size cap, hard-linked, unreadable) are not counted: ripgrep
 * could count them only by opening every file, and a count of the hard-linked ones that match
 * would tell the model something about a file it may not read.
 */
export class GrepReport {
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
    } else {
      this.count(path, 1)
    }
  }

  /** What the search found: the matching files when it lists files, else the matching lines. */
  get found(): number {
    return this.mode === 'files_with_matches' ? this.matchingFiles : this.matchingLines
  }

  /** Whether a line added now would be printed; when not, {@link addUnprinted} is enough. */
  get printing(): boolean {
    return this.mode === 'content' && this.printed.length < GREP_MAX_LINES
  }

  /** A file's `count` matching lines, none of them printed, after the files added before. */
  addUnprinted(path: string, count: number): void {
    this.matchingLines += count
    this.matchingFiles++
    this.lastPath = path
    if (this.mode !== 'content') this.count(path, count)
  }

  private count(path: string, lines: number): void {
    if (this.counts.has(path) || this.counts.size < GREP_MAX_FILES)
      this.counts.set(path, (this.counts.get(path) ?? 0) + lines)
  }

  render(pattern: string, where: string, truncated: boolean): string {
    const notes: string[] = []
    let body: string
    if (this.mode === 'content') {
      body = this.printed.join('\n')
      const rest = this.matchingLines - this.printed.length
      if (rest > 0)
        notes.push(
          `… and ${plural(rest, 'more matching line')} (narrow the pattern, path or glob, or use output_mode count)`,
        )
    } else {
      body = [...this.counts].map(([path, count]) => (this.mode === 'count' ? `${path}:${count}` : path)).join('\n')
      const rest = this.matchingFiles - this.counts.size
      if (rest > 0) notes.push(`… and ${plural(rest, 'more matching file')} (narrow the pattern, path or glob)`)
      if (this.mode === 'count')
        notes.push(`${plural(this.matchingLines, 'matching line')} in ${plural(this.matchingFiles, 'file')}`)
    }

    if (truncated)
      notes.push(`The search stopped after ${WALK_MAX_ENTRIES} entries, so it is incomplete; search a narrower path.`)
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
