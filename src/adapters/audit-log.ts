import {appendFile, mkdir} from 'node:fs/promises'
import {dirname, join} from 'node:path'

import type {AuditSink, PermissionAuditRecord} from '../core/permissions/index.js'

/** The audit log in the user's data dir (`resolvePaths(...).dataDir`): never inside a repository. */
export function auditLogPath(dataDir: string): string {
  return join(dataDir, 'audit.jsonl')
}

/**
 * Appends permission decisions to a JSONL file, one `appendFile` (O_APPEND) per record, so each
 * line is written whole even when several processes share the file. Its directory is created
 * 0700 and the file 0600: the log shows what ran and why. Records are written in the order they
 * are appended.
 *
 * A write that fails never reaches the caller's turn: the first failure calls `onWarning`, and
 * later ones are silent (one broken disk, one warning).
 */
export class AuditLog implements AuditSink {
  private directory?: Promise<unknown>
  private tail: Promise<void> = Promise.resolve()
  private warned = false

  constructor(
    private readonly path: string,
    private readonly onWarning: (message: string) => void = () => {},
  ) {}

  append(record: PermissionAuditRecord): Promise<void> {
    const line = `${JSON.stringify(record)}\n`
    this.tail = this.tail.then(() => this.write(line))
    return this.tail
  }

  private async write(line: string): Promise<void> {
    try {
      this.directory ??= mkdir(dirname(this.path), {mode: 0o700, recursive: true})
      await this.directory
      await appendFile(this.path, line, {mode: 0o600})
    } catch (error) {
      if (this.warned) return
      this.warned = true
      this.onWarning(`could not write the audit log ${this.path}: ${(error as Error).message}`)
    }
  }
}
