import {type Dirent} from 'node:fs'
import {readdir, realpath, stat} from 'node:fs/promises'
import {dirname, join} from 'node:path'

import {isInside} from '@hanzo-dev/sdk'
import ignore, {type Ignore} from 'ignore'

import {rebaseGitignore} from './gitignore-rules.js'
import {openRegularFile, readUpTo} from './text-file.js'
import {ToolFailure} from './tool-failure.js'
import {workspaceRelative} from './workspace-path.js'

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
}

/** What the walk leaves out, for the descriptions of the tools that search with it. */
export const WALK_RULES =
  'Files ignored by .gitignore files (the root one and nested ones) and the .git directory are left out; symbolic links to directories are not followed.'

/** Entries looked at by one walk: past it the tree is too large to search whole (narrow the path). */
export const WALK_MAX_ENTRIES = 200_000
/** A larger `.gitignore` is not a list of rules; it is skipped. */
const GITIGNORE_MAX_BYTES = 1024 * 1024

/**
 * The regular files under a directory of the workspace, in path order, as fs_glob and fs_grep
 * see them: `.gitignore` rules respected (the root's and nested ones, and those of the
 * directories between the root and the start), `.git` never entered, directory symlinks never
 * followed (no loops, no way out), file symlinks only when they resolve to a file inside the
 * workspace. A start directory that is itself ignored is searched: the model named it.
 *
 * Rules above the workspace root, `.git/info/exclude` and the global excludes file are not read.
 */
export class FileWalk {
  /** Whether the walk stopped at its entry budget; what it yielded is then incomplete. */
  truncated = false
  private visited = 0
  private rules: Ignore = ignore()

  constructor(private readonly options: WalkOptions) {}

  async *files(): AsyncGenerator<WalkedFile> {
    const {root, start} = this.options
    if (start !== root) {
      const ancestors: string[] = []
      for (let dir = dirname(start); isInside(root, dir); dir = dirname(dir)) {
        ancestors.unshift(dir)
        if (dir === root) break
      }

      for (const dir of ancestors) await this.addRules(dir)
      if (this.rules.ignores(`${workspaceRelative(root, start)}/`)) this.rules = ignore()
    }

    yield* this.directory(start)
  }

  private async *directory(dir: string): AsyncGenerator<WalkedFile> {
    await this.addRules(dir)
    let entries: Dirent[]
    try {
      entries = await readdir(dir, {withFileTypes: true})
    } catch {
      // A directory the user may not read is left out, as git and grep do.
      return
    }

    // Sorting directories as `name/` makes the depth-first order the plain order of the paths.
    const sorted = entries.map((entry) => ({entry, key: entry.isDirectory() ? `${entry.name}/` : entry.name})).sort((a, b) => compare(a.key, b.key))
    const base = workspaceRelative(this.options.root, dir)
    for (const {entry} of sorted) {
      if (this.options.signal.aborted) throw new ToolFailure('cancelled')
      if (entry.name === '.git') continue
      if (++this.visited > (this.options.maxEntries ?? WALK_MAX_ENTRIES)) {
        this.truncated = true
        return
      }

      const absolute = join(dir, entry.name)
      const relative = base === '.' ? entry.name : `${base}/${entry.name}`
      if (entry.isDirectory()) {
        if (this.rules.ignores(`${relative}/`)) continue
        yield* this.directory(absolute)
        if (this.truncated) return
      } else if ((entry.isFile() || (entry.isSymbolicLink() && (await this.isLinkToFileInside(absolute)))) && !this.rules.ignores(relative)) {
        yield {absolute, relative}
      }
    }
  }

  private async addRules(dir: string): Promise<void> {
    const text = await readGitignore(join(dir, '.gitignore'))
    if (text === undefined) return
    const base = workspaceRelative(this.options.root, dir)
    this.rules.add(rebaseGitignore(text, base === '.' ? '' : base))
  }

  private async isLinkToFileInside(link: string): Promise<boolean> {
    try {
      const target = await realpath(link)
      return isInside(this.options.root, target) && (await stat(target)).isFile()
    } catch {
      return false
    }
  }
}

/** The text of a `.gitignore`, or undefined when there is none (or it cannot be a list of rules). */
async function readGitignore(path: string): Promise<string | undefined> {
  try {
    const {handle, size} = await openRegularFile(path, path)
    try {
      return (await readUpTo(handle, GITIGNORE_MAX_BYTES, size))?.toString('utf8')
    } finally {
      await handle.close()
    }
  } catch {
    return undefined
  }
}

/** Code-unit order, the same on every machine (localeCompare is not). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
