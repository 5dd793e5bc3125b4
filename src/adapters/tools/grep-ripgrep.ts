import {closeSync} from 'node:fs'
import {join} from 'node:path'

import {comparePaths} from './file-walk.js'
import {GREP_MAX_FILE_BYTES, GREP_MAX_LINE_CHARS, GREP_MAX_LINES, type GrepReport} from './grep-report.js'
import {printedPath, runRipgrep, walkArguments} from './ripgrep.js'
import {relativeTo} from './search-scope.js'
import {BINARY_SNIFF_BYTES, looksBinary, openRegularFileSync, readHeadSync} from './text-file.js'
import {hiddenPlace, workspaceRelative, type WorkspacePath} from './workspace-path.js'

export interface RipgrepSearch {
  rg: string
  root: string
  /** The directory searched. */
  target: WorkspacePath
  /** The model's pattern as ripgrep's (rust-regex.ts). */
  pattern: string
  /** Whether a file (relative to the target) is in the glob the model gave. */
  inGlob: (relative: string) => boolean
  /** What ripgrep may narrow the walk to ({@link fileNameGlob} of that glob). */
  names?: string
  /** Print matching lines (`content`); count them (`count`); or only list the files, for which ripgrep stops at a file's first match. */
  want: 'count' | 'files' | 'lines'
  report: GrepReport
  signal: AbortSignal
  /** Canonical places whose files are left out (ToolContext.hiddenPaths). */
  hidden?: readonly string[]
}

/**
 * How fs_grep's rules are kept with ripgrep: every file is read as bytes (`--text`, `--encoding
 * none`: no BOM dropped, no UTF-16 decoded) with `\r\n` line ends (`--crlf`), over the size cap
 * skipped (`--max-filesize`, the same `>`); then of the files that match, those fs_grep would not
 * read are dropped, as it would drop them: hard-linked ones, and binary ones by fs_grep's own rule
 * (a NUL in the first 8 KB, not ripgrep's "anywhere before the match").
 */
const MATCH_ARGUMENTS = [
  '--no-config',
  '--text',
  '--encoding',
  'none',
  '--crlf',
  '--max-filesize',
  String(GREP_MAX_FILE_BYTES),
  '--null',
]

interface FileCount {
  path: string
  count: number
}

/**
 * The search done by ripgrep, into the report, in two runs: one listing (or counting the
 * matching lines of) every matching file, a small output whatever the tree, whose files are
 * checked as they come while ripgrep goes on; then, for `content`, one printing the lines of the
 * first files, up to what the report shows. False, with the report untouched, when ripgrep failed.
 */
export async function grepWithRipgrep(search: RipgrepSearch): Promise<boolean> {
  const {report, root, target} = search
  const walk = await walkArguments(root, target.absolute, search.names)
  const files: FileCount[] = []
  const records = new RecordReader(search.want === 'files' ? 'path' : 'count', (path, count) => {
    if (
      search.inGlob(relativeTo(target, path)) &&
      hiddenPlace(join(root, path), search.hidden) === undefined &&
      readable(join(root, path))
    )
      files.push({count, path})
  })
  let listed: Buffer | undefined
  try {
    const args = [
      ...walk.args,
      ...MATCH_ARGUMENTS,
      search.want === 'files' ? '--files-with-matches' : '--count',
      '--regexp',
      search.pattern,
      '--',
      workspaceRelative(root, target.absolute),
    ]
    listed = await runRipgrep(search.rg, args, root, search.signal, (chunk) => records.read(chunk))
  } finally {
    await walk.cleanup()
  }

  if (listed === undefined) return false
  files.sort((a, b) => comparePaths(a.path, b.path))
  let lines = new Map<string, PrintedLine[]>()
  if (search.want === 'lines') {
    const shown: string[] = []
    for (let sum = 0, i = 0; sum < GREP_MAX_LINES && i < files.length; i++) {
      shown.push(files[i].path)
      sum += files[i].count
    }

    if (shown.length > 0) {
      const args = [
        ...MATCH_ARGUMENTS,
        '--line-number',
        '--column',
        '--no-heading',
        '--with-filename',
        '--regexp',
        search.pattern,
        '--',
        ...shown,
      ]
      const printed = await runRipgrep(search.rg, args, root, search.signal)
      if (printed === undefined) return false
      lines = parseLines(printed)
    }
  }

  for (const file of files) {
    const found = lines.get(file.path)
    if (found && report.printing) for (const line of found) report.add(file.path, line.number, line.text, line.at)
    else report.addUnprinted(file.path, file.count)
  }

  return true
}

/** The bytes {@link readable} sniffs, reused: thousands of files are checked per search. */
const head = Buffer.allocUnsafe(BINARY_SNIFF_BYTES)

/** Whether fs_grep would read the file: regular, not hard-linked, within the cap, not binary. */
function readable(absolute: string): boolean {
  let fd: number
  let size: number
  try {
    ;({fd, size} = openRegularFileSync(absolute, absolute))
  } catch {
    return false
  }

  try {
    return size <= GREP_MAX_FILE_BYTES && !looksBinary(readHeadSync(fd, Math.min(size, BINARY_SNIFF_BYTES), head))
  } catch {
    return false
  } finally {
    closeSync(fd)
  }
}

/**
 * ripgrep's file records as they come, in chunks that may split them: `path\0count\n` from
 * `--count --null`, `path\0` from `--files-with-matches --null` (a count of 1: the mode that
 * asks for it prints no count).
 */
class RecordReader {
  private rest: Buffer = Buffer.alloc(0)

  constructor(
    private readonly format: 'count' | 'path',
    private readonly onFile: (path: string, count: number) => void,
  ) {}

  read(chunk: Buffer): void {
    const bytes = this.rest.length === 0 ? chunk : Buffer.concat([this.rest, chunk])
    let at = 0
    for (;;) {
      const nul = bytes.indexOf(0, at)
      if (nul === -1) break
      const path = printedPath(bytes.toString('utf8', at, nul))
      if (this.format === 'path') {
        this.onFile(path, 1)
        at = nul + 1
        continue
      }

      const newline = bytes.indexOf(10, nul)
      if (newline === -1) break
      this.onFile(path, Number(bytes.toString('latin1', nul + 1, newline)))
      at = newline + 1
    }

    this.rest = bytes.subarray(at)
  }
}

interface PrintedLine {
  number: number
  text: string
  /** Where the first match starts, in characters. */
  at: number
}

/** `rg --null --line-number --column`: `path\0line:column:text\n` per matching line. */
function parseLines(output: Buffer): Map<string, PrintedLine[]> {
  const text = output.toString('utf8')
  const files = new Map<string, PrintedLine[]>()
  for (let at = 0; at < text.length;) {
    const nul = text.indexOf('\0', at)
    const colon = text.indexOf(':', nul)
    const colon2 = text.indexOf(':', colon + 1)
    let newline = text.indexOf('\n', colon2)
    if (newline === -1) newline = text.length
    const path = printedPath(text.slice(at, nul))
    const end = text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline
    const line = text.slice(colon2 + 1, end)
    // The column counts bytes from 1; only a long line needs it, to be cut around the match.
    const column = Number(text.slice(colon + 1, colon2)) - 1
    const matchAt =
      line.length > GREP_MAX_LINE_CHARS ? Buffer.from(line).subarray(0, column).toString('utf8').length : 0
    let found = files.get(path)
    if (!found) files.set(path, (found = []))
    found.push({at: matchAt, number: Number(text.slice(nul + 1, colon)), text: line})
    at = newline + 1
  }

  return files
}
