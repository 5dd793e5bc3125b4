import {appendFile, mkdir} from 'node:fs/promises'
import {dirname} from 'node:path'

import type {LoggingMessageNotification} from '@modelcontextprotocol/sdk/types.js'

/** The last messages `/mcp` shows of a server's log. */
const KEPT = 3

/**
 * What a server says through `notifications/message`: appended to its log file (beside a stdio
 * server's stderr), counted by level, and its last few messages kept for `/mcp`.
 */
export class ServerLog {
  readonly counts = new Map<string, number>()
  readonly last: string[] = []
  private writing: Promise<void> = Promise.resolve()

  constructor(private readonly file: string) {}

  record({data, level, logger}: LoggingMessageNotification['params']): void {
    const text = typeof data === 'string' ? data : JSON.stringify(data)
    const line = `[${level}]${logger ? ` ${logger}:` : ''} ${text}`
    this.counts.set(level, (this.counts.get(level) ?? 0) + 1)
    this.last.push(line)
    if (this.last.length > KEPT) this.last.shift()
    // One after another, so the file keeps the order the server sent them in; a write that fails loses only its line.
    this.writing = this.writing
      .then(async () => {
        await mkdir(dirname(this.file), {mode: 0o700, recursive: true})
        await appendFile(this.file, `${new Date().toISOString()} ${line}\n`, {mode: 0o600})
      })
      .catch(() => {})
  }

  /** Settles when every message so far is in the file. */
  flushed(): Promise<void> {
    return this.writing
  }
}
