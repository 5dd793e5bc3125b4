import {existsSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {Middleware, ToolCall, ToolContext, ToolExecutorFn} from '@hanzo-dev/sdk'

import {resolveInWorkspace} from '../tools/workspace-path.js'
import {BlobStore, ignoredPath, type Scan, type ScannedFile, scanWorkspace} from './blobs.js'
import {
  appendToLog,
  CHECKPOINTS_VERSION,
  type CheckpointHeader,
  type FileCheckpoint,
  lockPath,
  type SkippedFile,
} from './store.js'

export interface CheckpointSettings {
  enabled: boolean
  maxFileBytes: number
  maxTotalMb: number
  keepDays: number
}

export const CHECKPOINT_DEFAULTS: CheckpointSettings = {
  enabled: true,
  keepDays: 30,
  maxFileBytes: 1024 * 1024,
  maxTotalMb: 1024,
}

export interface RecorderOptions {
  /** The project's checkpoint directory (CheckpointStore.projectDir). */
  dir: string
  session: string
  /** The canonical workspace root. */
  root: string
  hidden: readonly string[]
  maxFileBytes: number
  /** The prompt (the session's run) being taken now. */
  prompt(): number
}

type Line = FileCheckpoint | SkippedFile
const TOO_LARGE = Symbol('too large')
/** What a file held before a change: a blob, null (it did not exist), or too large to keep. */
type Before = string | null | typeof TOO_LARGE

/**
 * The recorders of this process holding each lock: a chat that reopens its session (a rewind,
 * `/model`) opens the new one before it closes the old, and the old one's release must not
 * unlock the session the new one goes on in.
 */
const holds = new Map<string, number>()

/** A file changed less than this long before a scan may change again within its mtime's granularity: not cached. */
const RACY_MS = 2000

/**
 * Records one session's checkpoints as its tools run (the middleware below), and holds the
 * session's lock while it is open. A file is recorded before the first change a prompt makes to
 * it: an edit tool's declared locations are read before it runs; a command may change anything,
 * so before a prompt's first command the workspace is scanned (each file changed since the last
 * scan is stored), and after each command a look at sizes and times tells which files it
 * changed, created or deleted.
 */
export class CheckpointRecorder {
  private readonly blobs: BlobStore
  private readonly header: CheckpointHeader
  /** Paths recorded for the prompt: only the first change of each counts. */
  private recorded = {paths: new Set<string>(), prompt: 0}
  /** The scan before the prompt's first command, begun when the prompt was (see {@link promptStarted}). */
  private before?: {prompt: number; scan: Promise<Scan>}
  /** The prompt in which a background command last started. */
  private backgroundIn?: number
  /** The last scan's sizes and times, so the next one hashes only what changed since. */
  private known?: Scan

  constructor(private readonly options: RecorderOptions) {
    this.blobs = new BlobStore(join(options.dir, 'objects'))
    this.header = {root: options.root, session: options.session, type: 'checkpoints', version: CHECKPOINTS_VERSION}
  }

  /** Marks the session as in use (pruning never takes its checkpoints) until {@link release}. */
  hold(): void {
    const path = lockPath(this.options.dir, this.options.session)
    mkdirSync(join(this.options.dir, 'sessions'), {mode: 0o700, recursive: true})
    writeFileSync(path, String(process.pid), {mode: 0o600})
    holds.set(path, (holds.get(path) ?? 0) + 1)
  }

  release(): void {
    const path = lockPath(this.options.dir, this.options.session)
    const left = (holds.get(path) ?? 1) - 1
    if (left > 0) return void holds.set(path, left)
    holds.delete(path)
    rmSync(path, {force: true})
  }

  middleware(): Middleware {
    return {
      name: 'checkpoints',
      wrap: (next: ToolExecutorFn) => async (call: ToolCall, context: ToolContext) => {
        if (call.kind === 'execute')
          return this.aroundCommand(() => next(call, context), {background: call.input.background === true})
        if (call.kind === 'edit') await this.beforeEdit(call)
        return next(call, context)
      },
    }
  }

  /** Records the files an edit names, as they are before it. */
  async beforeEdit(call: ToolCall): Promise<void> {
    const paths = (call.locations ?? []).map((location) => location.path)
    if (call.subject?.kind === 'path') paths.push(call.subject.path)
    const lines: Line[] = []
    for (const given of new Set(paths)) {
      const relative = await resolveInWorkspace(this.options.root, given, this.options.hidden).then(
        (resolved) => resolved.relative,
        // Outside the workspace, or hidden: the tool refuses it too.
        () => undefined,
      )
      if (relative === undefined || relative === '.') continue
      const line = this.fileLine(relative, () => this.currentBlob(relative))
      if (line) lines.push(line)
    }

    this.write(lines)
  }

  /**
   * A prompt was sent: the scan a command would need before it runs starts now, while the model
   * thinks, so a command turn waits only for the look after it. Only once a scan of the project
   * is known: the first one stores every file, which a session that runs no command need not pay.
   * What an edit tool changes meanwhile it records itself, before its change (beforeEdit).
   */
  promptStarted(): void {
    if (this.known === undefined && !existsSync(this.scanCachePath)) return
    void this.scanBefore()
  }

  /**
   * Runs a command between a scan before it (the prompt's first) and a look at what it changed.
   * A background command goes on changing files after its call returns: {@link settle} looks again.
   */
  async aroundCommand<T>(run: () => Promise<T>, {background = false} = {}): Promise<T> {
    const before = await this.scanBefore()
    if (background) this.backgroundIn = this.options.prompt()
    try {
      return await run()
    } finally {
      await this.recordChanges(before)
    }
  }

  /** The prompt's scan before its first command: begun now unless it was already. */
  private scanBefore(): Promise<Scan> {
    const prompt = this.options.prompt()
    if (this.before?.prompt !== prompt) {
      const scan = this.scan()
      // A scan begun at the prompt that fails fails the command that awaits it, not the process.
      scan.catch(() => {})
      this.before = {prompt, scan}
    }

    return this.before.scan
  }

  private get scanCachePath(): string {
    return join(this.options.dir, 'scan.json')
  }

  /**
   * At the end of a turn in which a background command started: records what changed since the
   * prompt's first scan that no call's look saw (what the command did after its call returned).
   * What it changes after the turn is not the prompt's to take back, and is not recorded.
   */
  async settle(): Promise<void> {
    const prompt = this.options.prompt()
    if (this.backgroundIn !== prompt || this.before?.prompt !== prompt) return
    await this.recordChanges(await this.before.scan)
  }

  /** Records each file changed, created or deleted since `before` (once a prompt: fileLine keeps the first). */
  private async recordChanges(before: Scan): Promise<void> {
    const after = await scanWorkspace(this.workspace(), before)
    const lines: Line[] = []
    for (const [path, was] of before) {
      const now = after.get(path)
      if (now && same(now, was)) continue
      // Over the size cap: never stored, so not restorable either; the log says so.
      const line = this.fileLine(path, () => was.blob ?? TOO_LARGE)
      if (line) lines.push(line)
    }

    for (const path of after.keys()) {
      const line = before.has(path) ? undefined : this.fileLine(path, () => null)
      if (line) lines.push(line)
    }

    this.write(lines)
  }

  /**
   * The scan before a prompt's first command, from the last one's sizes and times (this
   * process's, else the project's scan.json, which is rewritten only when a file was stored).
   */
  private async scan(): Promise<Scan> {
    const cachePath = this.scanCachePath
    const started = Date.now()
    this.known ??= readScanCache(cachePath)
    const known = this.known
    const scan = await scanWorkspace(this.workspace(), known, this.blobs)
    this.known = scan
    if ([...scan].some(([path, file]) => file.blob !== undefined && known.get(path) !== file)) {
      const cached = [...scan].filter(([, file]) => file.blob !== undefined && file.mtimeMs < started - RACY_MS)
      writeFileSync(cachePath, JSON.stringify(Object.fromEntries(cached)), {mode: 0o600})
    }

    return scan
  }

  /** A line for the prompt's first change of `path`, unless it has one or git would ignore the file. */
  private fileLine(path: string, blob: () => Before | undefined): Line | undefined {
    const prompt = this.options.prompt()
    if (this.recorded.prompt !== prompt) this.recorded = {paths: new Set(), prompt}
    if (this.recorded.paths.has(path) || ignoredPath(this.options.root, path)) return undefined
    const content = blob()
    if (content === undefined) return undefined
    this.recorded.paths.add(path)
    const at = new Date().toISOString()
    if (content === TOO_LARGE) return {at, path, prompt, reason: 'too large', type: 'skipped'}
    return {at, blob: content, path, prompt, type: 'file'}
  }

  /** The file's blob now, null when it does not exist, undefined when it is not a file. */
  private currentBlob(relative: string): Before | undefined {
    const absolute = join(this.options.root, relative)
    let info
    try {
      info = lstatSync(absolute)
    } catch {
      return null
    }

    if (!info.isFile()) return undefined
    if (info.size > this.options.maxFileBytes) return TOO_LARGE
    return this.blobs.put(readFileSync(absolute))
  }

  private write(lines: Line[]): void {
    if (lines.length > 0) appendToLog(this.options.dir, this.header, lines)
  }

  private workspace() {
    return {hidden: this.options.hidden, maxFileBytes: this.options.maxFileBytes, root: this.options.root}
  }
}

function readScanCache(path: string): Scan {
  try {
    return new Map(Object.entries(JSON.parse(readFileSync(path, 'utf8')) as Record<string, ScannedFile>))
  } catch {
    return new Map()
  }
}

function same(a: ScannedFile, b: ScannedFile): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs
}
