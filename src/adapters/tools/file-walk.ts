import {closeSync, type Dirent, readdirSync} from 'node:fs'
import {dirname, join, sep} from 'node:path'
import {setImmediate as nextTurn} from 'node:timers/promises'

import {isInside} from '@hanzo-dev/sdk'
import ignore, {type Ignore} from 'ignore'

import {rebaseGitignore} from './gitignore-rules.js'
import {openRegularFileSync, readUpToSync} from './text-file.js'
import {ToolFailure} from './tool-failure.js'
import {hiddenPlace, workspaceRelative} from './workspace-path.js'

export interface WalkedFile {
  absolute: string
  /** Relative to the workspace root, `/`-separated. */
  relative: string
}

export interface WalkOptions {
  /** The canonical workspace root. */
  root: string
  /** The canonical directory the walk starts in, inside the root. */
  start: string
  signal: AbortSignal
  /** Entries to look at before giving up; {@link WALK_MAX_ENTRIES} by default. */
  maxEntries?: number
  /** Canonical places left out wherever they are (ToolContext.hiddenPaths). */
  hidden?: readonly string[]
}

/** What the walk leaves out, for the descriptions of the tools that search with it. */
export const WALK_RULES =
  'Files ignored by .gitignore files (the root one and nested ones) and the .git directory are left out; symbolic links (to files or directories) are not followed: name one as path to search it.'

/** Entries looked at by one walk: past it the tree is too large to search whole (narrow the path). */
export const WALK_MAX_ENTRIES = 200_000
/** A larger `.gitignore` is not a list of rules; it is skipped. */
const GITIGNORE_MAX_BYTES = 1024 * 1024
/**
 * Entries looked at between two turns of the event loop. The walk reads synchronously (a promise
 * per directory and per missing `.gitignore` cost more than the reading), so it gives the loop a
 * turn now and then: an abort, a timer or a key press is not held up for the whole walk.
 */
const WALK_ENTRIES_PER_TURN = 1024
/** What {@link FileWalk.steps} yields where the walk should give the event loop a turn. */
export const WALK_TURN = Symbol('walk turn')

/**
 * The regular files under a directory of the workspace, in path order, as fs_glob and fs_grep
 * see them: `.gitignore` rules respected (the root's and nested ones, and those of the
 * directories between the root and the start), `.git` never entered, symbolic links never
 * followed, to files or directories (no loops, no way out, and ripgrep's rule too, so both search
 * paths list the same files; see ripgrep.ts). A start directory that is itself ignored is
 * searched: the model named it.
 *
 * Rules above the workspace root, `.git/info/exclude` and the global excludes file are not read.
 */
export class FileWalk {
  /** Whether the walk stopped at its entry budget; what it yielded is then incomplete. */
  truncated = false
  private visited = 0
  private readonly rules: Ignore = ignore()
  /** The hidden places the walk could meet: one per entry would cost more than the reading. */
  private hidden: readonly string[] = []
  /** Whether any rule was added: testing against none costs as much as against a few. */
  private ruled = false

  constructor(private readonly options: WalkOptions) {}

  async *files(): AsyncGenerator<WalkedFile> {
    for (const step of this.steps()) {
      if (step === WALK_TURN) await nextTurn()
      else yield step
    }
  }

  /**
   * The same walk, synchronous, for a caller that walks the whole tree in one go (a promise per
   * file costs more than the reading): {@link WALK_TURN} comes where it should give the loop a turn.
   */
  *steps(): Generator<WalkedFile | typeof WALK_TURN> {
    const {root, start} = this.options
    this.hidden = (this.options.hidden ?? []).filter((place) => isInside(start, place) || isInside(place, start))
    this.addRules(ancestorRules(root, start))
    yield* this.directory(start)
  }

  private *directory(dir: string): Generator<WalkedFile | typeof WALK_TURN> {
    let entries: Dirent[]
    try {
      entries = readdirSync(dir, {withFileTypes: true})
    } catch {
      // A directory the user may not read is left out, as git and grep do.
      return
    }

    // A linked .gitignore is read (ripgrep reads it too): only its rules, never a file to search.
    if (entries.some((entry) => entry.name === '.gitignore' && (entry.isFile() || entry.isSymbolicLink())))
      this.addRules(gitignoreRules(this.options.root, dir))

    // Sorting directories as `name/` makes the depth-first order the plain order of the paths.
    const sorted = entries
      .map((entry) => ({entry, key: entry.isDirectory() ? `${entry.name}/` : entry.name}))
      .sort((a, b) => comparePaths(a.key, b.key))
    const base = workspaceRelative(this.options.root, dir)
    // `dir` is canonical and a name has no separator: what join() would give, without its normalizing.
    const prefix = dir.endsWith(sep) ? dir : dir + sep
    for (const {entry} of sorted) {
      if (this.options.signal.aborted) throw new ToolFailure('cancelled')
      if (entry.name === '.git') continue
      if (++this.visited > (this.options.maxEntries ?? WALK_MAX_ENTRIES)) {
        this.truncated = true
        return
      }

      if (this.visited % WALK_ENTRIES_PER_TURN === 0) yield WALK_TURN

      const absolute = prefix + entry.name
      const relative = base === '.' ? entry.name : `${base}/${entry.name}`
      if (this.hidden.length > 0 && hiddenPlace(absolute, this.hidden) !== undefined) continue
      if (entry.isDirectory()) {
        if (this.ruled && this.rules.ignores(`${relative}/`)) continue
        yield* this.directory(absolute)
        if (this.truncated) return
      } else if (entry.isFile() && !(this.ruled && this.rules.ignores(relative))) {
        yield {absolute, relative}
      }
    }
  }

  private addRules(rules: string[]): void {
    if (rules.length === 0) return
    this.rules.add(rules)
    this.ruled = true
  }
}

/**
 * The rules of the `.gitignore` files between the workspace root and the directory a walk
 * starts in (the start's own excluded), rebased to the root; none when they ignore the start
 * itself, which the model named.
 */
export function ancestorRules(root: string, start: string): string[] {
  if (start === root) return []
  const ancestors: string[] = []
  for (let dir = dirname(start); isInside(root, dir); dir = dirname(dir)) {
    ancestors.unshift(dir)
    if (dir === root) break
  }

  const rules: string[] = []
  for (const dir of ancestors) rules.push(...gitignoreRules(root, dir))
  return ignore()
    .add(rules)
    .ignores(`${workspaceRelative(root, start)}/`)
    ? []
    : rules
}

/** The rules of the `.gitignore` in `dir`, rebased to the workspace root. */
export function gitignoreRules(root: string, dir: string): string[] {
  const text = readGitignore(join(dir, '.gitignore'))
  if (text === undefined) return []
  const base = workspaceRelative(root, dir)
  return rebaseGitignore(text, base === '.' ? '' : base)
}

/** The text of a `.gitignore`, or undefined when there is none (or it cannot be a list of rules). */
function readGitignore(path: string): string | undefined {
  try {
    const {fd, size} = openRegularFileSync(path, path)
    try {
      return readUpToSync(fd, GITIGNORE_MAX_BYTES, size)?.toString('utf8')
    } finally {
      closeSync(fd)
    }
  } catch {
    return undefined
  }
}

/** Code-unit order, the same on every machine (localeCompare is not); the walk's order on whole paths. */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
