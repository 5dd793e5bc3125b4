import {createHash, randomBytes} from 'node:crypto'
import {existsSync, lstatSync, mkdirSync, readFileSync, renameSync, utimesSync, writeFileSync} from 'node:fs'
import {readFile} from 'node:fs/promises'
import {dirname, join} from 'node:path'
import {setImmediate as nextTurn} from 'node:timers/promises'

import ignore from 'ignore'

import {FileWalk, gitignoreRules, WALK_TURN} from '../tools/file-walk.js'

/** What a file was when a scan looked at it: `blob` is undefined for a file over the size cap (never stored). */
export interface ScannedFile {
  size: number
  mtimeMs: number
  blob?: string
}

/** The workspace's files by workspace-relative path. */
export type Scan = Map<string, ScannedFile>

/**
 * File contents by their SHA-256 (`objects/ab/cdef…`), as git stores blobs: the same content is
 * kept once, whichever file, turn or session it came from, so a snapshot of a tree that barely
 * changed costs the few files that did. Blobs are written to a temp file and renamed, so a kill
 * never leaves a torn one under its name.
 */
export class BlobStore {
  constructor(readonly dir: string) {}

  pathOf(hash: string): string {
    return join(this.dir, hash.slice(0, 2), hash.slice(2))
  }

  put(content: Buffer): string {
    const hash = createHash('sha256').update(content).digest('hex')
    const path = this.pathOf(hash)
    if (existsSync(path)) {
      // Pruning spares recent blobs only (retention.ts): one used again is recent again.
      const now = new Date()
      utimesSync(path, now, now)
      return hash
    }

    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`
    try {
      writeFileSync(temp, content, {mode: 0o600})
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      // Made when its first blob comes, not tried before each one: a scan may store hundreds.
      mkdirSync(dirname(path), {mode: 0o700, recursive: true})
      writeFileSync(temp, content, {mode: 0o600})
    }

    renameSync(temp, path)
    return hash
  }

  get(hash: string): Promise<Buffer> {
    return readFile(this.pathOf(hash))
  }
}

export interface WorkspaceFiles {
  /** The canonical workspace root. */
  root: string
  hidden: readonly string[]
  maxFileBytes: number
}

/**
 * The workspace's files as git would see them (`.gitignore` honoured, `.git` left out), each
 * stored in `blobs` unless `known` (an earlier scan) has it at the same size and mtime: only what
 * changed since is read and hashed. With `blobs` absent, nothing is read: a look at sizes and
 * times, to tell what a command changed.
 */
export async function scanWorkspace(files: WorkspaceFiles, known: Scan, blobs?: BlobStore): Promise<Scan> {
  const scan: Scan = new Map()
  const walk = new FileWalk({
    hidden: files.hidden,
    root: files.root,
    signal: new AbortController().signal,
    start: files.root,
  })
  // Its synchronous steps, not files(): before and after every command, a promise per file cost more than the lstat.
  for (const file of walk.steps()) {
    if (file === WALK_TURN) {
      await nextTurn()
      continue
    }

    const info = lstatSync(file.absolute, {throwIfNoEntry: false})
    if (!info) continue
    const before = known.get(file.relative)
    const {mtimeMs, size} = info
    if (before && before.size === size && before.mtimeMs === mtimeMs) {
      scan.set(file.relative, before)
    } else if (!blobs || size > files.maxFileBytes) {
      scan.set(file.relative, {mtimeMs, size})
    } else {
      const content = readOrUndefined(file.absolute)
      if (content) scan.set(file.relative, {blob: blobs.put(content), mtimeMs, size})
    }
  }

  return scan
}

/** Whether git would leave out `relative` (a file of the workspace): its own or an ancestor's `.gitignore` says so. */
export function ignoredPath(root: string, relative: string): boolean {
  const parts = relative.split('/')
  if (parts.includes('.git')) return true
  const rules: string[] = []
  for (let depth = 0; depth < parts.length; depth++)
    rules.push(...gitignoreRules(root, join(root, ...parts.slice(0, depth))))
  return rules.length > 0 && ignore().add(rules).ignores(relative)
}

function readOrUndefined(path: string): Buffer | undefined {
  try {
    return readFileSync(path)
  } catch {
    return undefined
  }
}
