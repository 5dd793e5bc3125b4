import {spawn} from 'node:child_process'
import {accessSync, constants} from 'node:fs'
import {mkdtemp, rm, writeFile} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {delimiter, join} from 'node:path'

import {ancestorRules} from './file-walk.js'
import {ToolFailure} from './tool-failure.js'

/**
 * ripgrep (`rg` on PATH, Debian's `ripgrep` 13 or later) as the engine of fs_glob and fs_grep:
 * it walks and matches several times faster than Node.js. It is asked for exactly the files
 * FileWalk lists, so both paths give the same results:
 * - ignore files: only `.gitignore`s, from the workspace root down (`--no-require-git`: a plain
 *   directory too; no `.ignore`/`.rgignore`, `.git/info/exclude`, global excludes or rules above
 *   the root); those between the root and the start directory are handed over rebased, in a
 *   temporary `--ignore-file` (its rules apply from rg's working directory, the root);
 * - hidden files are searched, `.git` never;
 * - symbolic links are not followed, to files or directories (ripgrep's default, and FileWalk's:
 *   no loops, no way out of the workspace; a link named as `path` is resolved and checked first);
 * - no configuration file (`--no-config`), no environment, no shell: an argument array.
 * What ripgrep does not know (hard links, the binary rule, the JavaScript regex) is in
 * grep-ripgrep.ts. FileWalk's entry budget has no counterpart: ripgrep always walks the whole tree.
 */

/** How long one ripgrep process may run before it is killed and the search fails (a large tree on a cold disk cache takes seconds). */
export const RIPGREP_LIMIT_MS = 30_000
/** Output read from one ripgrep process; past it the built-in path does the search. */
const RIPGREP_MAX_OUTPUT = 64 * 1024 * 1024

let found: {path: string; rg: string | undefined} | undefined

/** The `rg` executable on PATH, or undefined; looked up again only when PATH changes. */
export function ripgrep(): string | undefined {
  const path = process.env.PATH ?? ''
  if (found?.path !== path) found = {path, rg: lookUp(path)}
  return found.rg
}

function lookUp(path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue
    const candidate = join(dir, 'rg')
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // Not there, or not executable: the next directory.
    }
  }

  return undefined
}

/**
 * A ripgrep run's arguments for the walk from `start` (run in `root`), and what to clean up after.
 * `names` (from {@link fileNameGlob}) spares listing or reading files whose name cannot match.
 */
export async function walkArguments(
  root: string,
  start: string,
  names?: string,
): Promise<{args: string[]; cleanup(): Promise<void>}> {
  const args = [
    '--no-config',
    '--hidden',
    '--no-require-git',
    '--no-ignore-global',
    '--no-ignore-exclude',
    '--no-ignore-dot',
    '--no-ignore-parent',
    '--no-messages',
    '--glob',
    '!.git',
  ]
  // A file type, not a --glob: ripgrep's globs override .gitignore, its types come after it.
  if (names !== undefined) args.push('--type-add', `hanzo:${names}`, '--type', 'hanzo')
  const rules = ancestorRules(root, start)
  if (rules.length === 0) return {args, cleanup: async () => {}}
  const dir = await mkdtemp(join(tmpdir(), 'hanzo-rg-'))
  const file = join(dir, 'ancestors.gitignore')
  await writeFile(file, `${rules.join('\n')}\n`)
  return {args: [...args, '--ignore-file', file], cleanup: () => rm(dir, {force: true, recursive: true})}
}

/** A glob's last segment in the syntax picomatch and ripgrep read alike: names, `*`, `?` and flat `{a,b}`. */
const PLAIN_NAME_GLOB = /^(?:[\p{L}\p{N}._ -]|\*(?!\*)|\?|\{[\p{L}\p{N}._ *?-]+(?:,[\p{L}\p{N}._ *?-]+)+\})+$/u

/**
 * The file names `glob` can match, as a glob ripgrep matches against file names: its last
 * segment, when that is plain (a filter ripgrep applies before the exact picomatch test, so it
 * may let through more, never less). Undefined when it cannot tell (`**` last, `[...]`, escapes,
 * extglobs, braces spanning a `/`).
 */
export function fileNameGlob(glob: string): string | undefined {
  const last = glob.slice(glob.lastIndexOf('/') + 1)
  if (last.includes('**') || /\{[^}]*$/.test(glob.slice(0, glob.lastIndexOf('/') + 1))) return undefined
  return PLAIN_NAME_GLOB.test(last) ? last : undefined
}

/** A path ripgrep printed, relative to the root (it prefixes `./` when told to search `.`). */
export function printedPath(path: string): string {
  return path.startsWith('./') ? path.slice(2) : path
}

/**
 * Runs ripgrep to the end. Its output, or undefined when it failed (exit 2: a pattern it
 * refuses, an unreadable file) or said too much: the caller then searches without it. With
 * `consume`, each chunk goes there as it comes (work done while ripgrep still searches) and the
 * output returned is empty. Killed on abort (rejecting with the signal's reason) and after
 * {@link RIPGREP_LIMIT_MS}; a `consume` that throws kills it too and rejects with that error.
 */
export function runRipgrep(
  rg: string,
  args: string[],
  cwd: string,
  signal: AbortSignal,
  consume?: (chunk: Buffer) => void,
): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason)
      return
    }

    const child = spawn(rg, args, {cwd, env: {}, stdio: ['ignore', 'pipe', 'ignore']})
    const chunks: Buffer[] = []
    let size = 0
    let outcome: 'aborted' | 'overflow' | 'timeout' | {error: unknown} | undefined
    const stop = (why: typeof outcome) => {
      outcome ??= why
      child.kill('SIGKILL')
    }

    const onAbort = () => stop('aborted')
    const timer = setTimeout(() => stop('timeout'), RIPGREP_LIMIT_MS)
    signal.addEventListener('abort', onAbort, {once: true})
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (outcome !== undefined) return
      if (size > RIPGREP_MAX_OUTPUT) stop('overflow')
      else if (consume === undefined) chunks.push(chunk)
      else {
        try {
          consume(chunk)
        } catch (error) {
          stop({error})
        }
      }
    })
    child.on('error', () => resolve(undefined))
    child.on('close', (code) => {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      if (outcome === 'aborted') reject(signal.reason)
      else if (outcome === 'timeout')
        reject(
          new ToolFailure(
            `the search ran for more than ${RIPGREP_LIMIT_MS / 1000} s and was stopped; narrow path or glob`,
          ),
        )
      else if (typeof outcome === 'object') reject(outcome.error)
      else resolve(outcome === undefined && (code === 0 || code === 1) ? Buffer.concat(chunks) : undefined)
    })
  })
}

/** The paths `rg --files --null` printed, relative to the root. */
export function listedPaths(output: Buffer): string[] {
  const text = output.toString('utf8')
  return text === ''
    ? []
    : text
        .split('\0')
        .slice(0, -1)
        .map((path) => printedPath(path))
}
