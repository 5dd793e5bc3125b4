import {appendFileSync, mkdirSync, readFileSync} from 'node:fs'
import {mkdir, readdir, readFile, rm, rmdir, unlink, writeFile} from 'node:fs/promises'
import {dirname, join} from 'node:path'

import {projectKey} from '../session-store.js'
import {BlobStore} from './blobs.js'

/**
 * Checkpoints: what each file the agent changed held before the turn (the prompt) that first
 * changed it, so any prompt's changes can be taken back, in a git repository or not.
 *
 * Why content-addressed blobs in the data dir and not a shadow git repository (Gemini CLI's
 * way): nothing here runs git, so it works where git is not installed, can never touch the
 * user's `.git`, index or stash (no GIT_DIR/GIT_WORK_TREE to get wrong), and a turn's record is
 * only the files it changed: no commit of the whole tree per turn. What a shadow repository
 * would give for free, dedup, the blob store gives too (blobs.ts).
 *
 * Layout, per workspace root (`<dataDir>/checkpoints/<project>/`, the project as sessions name it):
 * `objects/` the blobs, `scan.json` the sizes and times of the last scan (only files that changed
 * since are hashed again), `sessions/<id>.jsonl` one log per session, `sessions/<id>.lock` while
 * a process has the session open. A log is a header line, then one line per file: its content
 * (a blob, or null: it did not exist) before the first change of the prompt that changed it; a
 * file over the size cap gets a `skipped` line instead (a type of its own, so a reader that knows
 * only `file` lines passes over it rather than take it for a file that did not exist).
 */
export const CHECKPOINTS_VERSION = 1

export interface CheckpointHeader {
  type: 'checkpoints'
  version: number
  session: string
  /** The canonical workspace root the paths are relative to. */
  root: string
}

export interface FileCheckpoint {
  type: 'file'
  /** The prompt (1-based run of the session) whose first change of the file this precedes. */
  prompt: number
  at: string
  path: string
  /** Null: the file did not exist. */
  blob: string | null
}

/** A file a prompt changed whose content before was not kept: it was over the size cap. */
export interface SkippedFile {
  type: 'skipped'
  prompt: number
  at: string
  path: string
  reason: 'too large'
}

/** What restoring the code to before a prompt would do (each list workspace-relative, sorted). */
export interface CodeDiff {
  /** Changed since: their content comes back. */
  modified: string[]
  /** Created since: removed. */
  created: string[]
  /** Deleted since: brought back. */
  deleted: string[]
  /** Changed since but over the size cap then: left as they are. */
  notKept: string[]
}

export class CheckpointStore {
  constructor(private readonly dir: string) {}

  static at(dataDir: string): CheckpointStore {
    return new CheckpointStore(join(dataDir, 'checkpoints'))
  }

  /** The directory of one workspace root's checkpoints. */
  projectDir(root: string): string {
    return join(this.dir, projectKey(root))
  }

  /** Every workspace root's directory. */
  async projectDirs(): Promise<string[]> {
    return (await names(this.dir)).map((name) => join(this.dir, name))
  }

  /** The checkpoints of a session; undefined when it has none (nothing changed, or they were pruned). */
  async session(id: string): Promise<SessionCheckpoints | undefined> {
    for (const dir of await this.projectDirs()) {
      const text = await readFile(logPath(dir, id), 'utf8').catch(() => undefined)
      if (text !== undefined) return SessionCheckpoints.parse(dir, id, text)
    }

    return undefined
  }

  /** Removes a session's log (its blobs go with the next prune, once no log needs them). */
  async deleteSession(id: string): Promise<boolean> {
    const found = await this.session(id)
    if (!found) return false
    await rm(logPath(found.dir, id), {force: true})
    await rm(lockPath(found.dir, id), {force: true})
    return true
  }
}

/** One session's checkpoints: the API `sessions rewind` and the chat's rewind use. */
export class SessionCheckpoints {
  private constructor(
    readonly dir: string,
    readonly header: CheckpointHeader,
    readonly files: Array<FileCheckpoint | SkippedFile>,
  ) {}

  static parse(dir: string, id: string, text: string): SessionCheckpoints {
    const lines = text.split('\n').flatMap((line) => {
      try {
        return line.trim() ? [JSON.parse(line) as {type?: string}] : []
      } catch {
        // A line torn by a kill: the others still count.
        return []
      }
    })
    const header = lines.find((line): line is CheckpointHeader => line.type === 'checkpoints')
    const files = lines.filter(
      (line): line is FileCheckpoint | SkippedFile => line.type === 'file' || line.type === 'skipped',
    )
    return new SessionCheckpoints(dir, header ?? {root: '', session: id, type: 'checkpoints', version: 1}, files)
  }

  get root(): string {
    return this.header.root
  }

  /** How many files each prompt changed first, by prompt. */
  changedByPrompt(): Map<number, number> {
    const counts = new Map<number, number>()
    for (const file of this.files) counts.set(file.prompt, (counts.get(file.prompt) ?? 0) + 1)
    return counts
  }

  /**
   * What each file the agent changed from prompt `prompt` on held before it: the earliest record
   * wins (a file is recorded before a prompt's first change to it, so that is its state then).
   * Undefined: it was over the size cap, so what it held is not known.
   */
  target(prompt: number): Map<string, string | null | undefined> {
    const state = new Map<string, string | null | undefined>()
    for (const file of this.files)
      if (file.prompt >= prompt && !state.has(file.path))
        state.set(file.path, file.type === 'file' ? file.blob : undefined)
    return state
  }

  async diff(prompt: number): Promise<CodeDiff> {
    const diff: CodeDiff = {created: [], deleted: [], modified: [], notKept: []}
    for (const [path, blob] of this.target(prompt)) {
      const now = await readFile(join(this.root, path)).catch(() => null)
      if (blob === undefined) {
        diff.notKept.push(path)
      } else if (blob === null) {
        if (now !== null) diff.created.push(path)
      } else if (now === null) {
        diff.deleted.push(path)
      } else if (!now.equals(await this.blobs.get(blob))) {
        diff.modified.push(path)
      }
    }

    for (const list of Object.values(diff)) list.sort()
    return diff
  }

  /**
   * Puts the files back as they were before `prompt`, and forgets the records of it and later
   * prompts (they describe a history the code no longer has). Returns what it did.
   */
  async restore(prompt: number): Promise<CodeDiff> {
    const diff = await this.diff(prompt)
    const target = this.target(prompt)
    for (const path of diff.created) {
      await unlink(join(this.root, path)).catch(() => {})
      await removeEmptyParents(this.root, path)
    }

    for (const path of [...diff.modified, ...diff.deleted]) {
      const absolute = join(this.root, path)
      await mkdir(dirname(absolute), {recursive: true})
      await writeFile(absolute, await this.blobs.get(target.get(path)!))
    }

    const kept = this.files.filter((file) => file.prompt < prompt)
    const text = [this.header, ...kept].map((line) => `${JSON.stringify(line)}\n`).join('')
    await writeFile(logPath(this.dir, this.header.session), text, {mode: 0o600})
    this.files.splice(0, this.files.length, ...kept)
    return diff
  }

  /** The blob store of the session's workspace (`/undo` keeps what it overwrites there). */
  get blobs(): BlobStore {
    return new BlobStore(join(this.dir, 'objects'))
  }
}

/**
 * Removes the directories above a removed file that are empty now, up to the workspace root: a
 * file created in a new directory takes its directory with it. The log does not say which
 * directories existed before, so an empty one that did goes too; it held nothing to lose.
 */
async function removeEmptyParents(root: string, path: string): Promise<void> {
  for (let dir = dirname(path); dir !== '.' && dir !== '/'; dir = dirname(dir)) {
    // rmdir refuses a directory that is not empty: that one, and those above it, stay.
    const removed = await rmdir(join(root, dir)).then(
      () => true,
      () => false,
    )
    if (!removed) return
  }
}

/** Appends lines to a session's log, the header first when the log is new. */
export function appendToLog(
  dir: string,
  header: CheckpointHeader,
  lines: ReadonlyArray<FileCheckpoint | SkippedFile>,
): void {
  const path = logPath(dir, header.session)
  mkdirSync(dirname(path), {mode: 0o700, recursive: true})
  const fresh = readFileOrUndefined(path) === undefined
  const text = [...(fresh ? [header] : []), ...lines].map((line) => `${JSON.stringify(line)}\n`).join('')
  appendFileSync(path, text, {mode: 0o600})
}

export function logPath(dir: string, id: string): string {
  return join(dir, 'sessions', `${id}.jsonl`)
}

export function lockPath(dir: string, id: string): string {
  return join(dir, 'sessions', `${id}.lock`)
}

/** The process that has the session open, when one (still running) does. */
export function sessionHolder(dir: string, id: string): number | undefined {
  const pid = Number(readFileOrUndefined(lockPath(dir, id)))
  if (!Number.isInteger(pid) || pid <= 0) return undefined
  try {
    process.kill(pid, 0)
    return pid
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined
  }
}

function readFileOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

export async function names(dir: string): Promise<string[]> {
  return readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return []
    throw error
  })
}
