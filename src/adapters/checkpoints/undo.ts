import {mkdir, readFile, unlink, writeFile} from 'node:fs/promises'
import {dirname, join} from 'node:path'

import {conversationLines} from '../../core/sessions/history.js'
import {conversationBefore, promptCount} from '../../core/sessions/prompts.js'
import type {MessageLine} from '../../core/sessions/transcript.js'
import {type SessionStore, TranscriptFile} from '../session-store.js'
import {applyRewind, planRewind, type RewindPlan} from './rewind.js'
import {appendToLog, type CheckpointStore, type CodeDiff, type FileCheckpoint, type SkippedFile} from './store.js'

type Stores = {sessions: SessionStore; checkpoints: CheckpointStore}

/** What one `/undo` took back: enough to put it all back (`/redo`). */
interface Undone {
  /** The prompt whose turn was taken back. */
  prompt: number
  /** The session's prompt count then: a prompt sent since makes the undo final. */
  prompts: number
  /** What each file the undo restored held before it, as a blob (null: it did not exist). */
  files: Map<string, string | null>
  /** The checkpoint records the undo dropped, put back by a redo so a later rewind still finds them. */
  records: Array<FileCheckpoint | SkippedFile>
  /** The conversation before the undo. */
  messages: MessageLine[]
}

export interface Redone {
  prompt: number
  /** How many files were put back. */
  files: number
}

/**
 * `/undo` and `/redo` of one chat: undo is a rewind of the last prompt not yet undone, code and
 * conversation, and keeps what it overwrote (the files' contents in the checkpoint blob store,
 * so nothing is lost; the conversation and the dropped records in memory) for redo. Undos stack:
 * each takes back the prompt before the last one undone; redos put them back newest-undone
 * first. A prompt sent since an undo makes it final (its redo would write over the new turn).
 */
export class UndoStack {
  private readonly undone: Undone[] = []

  constructor(
    private readonly stores: Stores,
    private readonly warn: (message: string) => void,
  ) {}

  /** Forgets the undos (a rewind or a new prompt moved the session on). */
  clear(): void {
    this.undone.splice(0)
  }

  /**
   * The plan of the next undo; undefined when every prompt is undone already. A prompt whose
   * conversation a `/rewind` already took back is passed over: the undo is of the last prompt
   * the conversation still holds (when none is found, of the last prompt).
   */
  async plan(id: string): Promise<RewindPlan | undefined> {
    await this.dropIfMovedOn(id)
    const session = await this.stores.sessions.find(id)
    const {lines} = await this.stores.sessions.read(session.path)
    const last = this.undone.at(-1)
    const newest = last ? last.prompt - 1 : promptCount(lines)
    if (newest === 0) return undefined
    const now = conversationLines(lines).length
    let to = newest
    while (to > 0 && conversationBefore(lines, to).length >= now) to--
    return planRewind(this.stores, id, to === 0 ? newest : to)
  }

  /** Carries out an undo's plan, keeping what it overwrites. */
  async undo(plan: RewindPlan): Promise<CodeDiff> {
    const {checkpoints} = plan
    const files = new Map<string, string | null>()
    if (checkpoints)
      for (const [path, blob] of checkpoints.target(plan.to)) {
        // Over the size cap: the undo does not touch it, so the redo need not either.
        if (blob === undefined) continue
        const now = await readFile(join(checkpoints.root, path)).catch(() => null)
        files.set(path, now === null ? null : checkpoints.blobs.put(now))
      }

    const {lines} = await this.stores.sessions.read(plan.session.path)
    const entry: Undone = {
      files,
      messages: conversationLines(lines),
      prompt: plan.to,
      prompts: plan.prompts.length,
      records: checkpoints?.files.filter((file) => file.prompt >= plan.to) ?? [],
    }
    const done = await applyRewind(this.stores, plan, {code: true, conversation: true}, this.warn)
    this.undone.push(entry)
    return done
  }

  /**
   * Puts back what the last undo took back: the files, the checkpoint records, the
   * conversation. A string says why not (nothing undone, or a prompt was sent since).
   */
  async redo(id: string): Promise<Redone | string> {
    if (this.undone.length === 0) return 'Nothing to redo: /undo takes back the last prompt first.'
    if (await this.dropIfMovedOn(id)) return 'Nothing to redo: a prompt was sent since the undo.'
    const entry = this.undone.pop()!
    const checkpoints = await this.stores.checkpoints.session(id)
    if (checkpoints) {
      for (const [path, blob] of entry.files) {
        const absolute = join(checkpoints.root, path)
        if (blob === null) await unlink(absolute).catch(() => {})
        else {
          await mkdir(dirname(absolute), {recursive: true})
          await writeFile(absolute, await checkpoints.blobs.get(blob))
        }
      }

      appendToLog(checkpoints.dir, checkpoints.header, entry.records)
    }

    const session = await this.stores.sessions.find(id)
    const file = new TranscriptFile(session.path, this.warn)
    file.append({at: new Date().toISOString(), cause: 'rewound', messages: entry.messages, type: 'history'})
    file.close()
    return {files: checkpoints ? entry.files.size : 0, prompt: entry.prompt}
  }

  /** Forgets the undos when a prompt was sent since the last; true when it did. */
  private async dropIfMovedOn(id: string): Promise<boolean> {
    const last = this.undone.at(-1)
    if (!last) return false
    const session = await this.stores.sessions.find(id)
    const {lines} = await this.stores.sessions.read(session.path)
    if (promptCount(lines) === last.prompts) return false
    this.clear()
    return true
  }
}
