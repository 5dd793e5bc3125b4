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
 * A record that cannot be written rejects its `append`, naming the file and what to do (the gate
 * then denies the call); every append tries again, so a log that is fixed mid-session works.
 */
export class AuditLog implements AuditSink {
  private directory?: Promise<unknown>
  private tail: Promise<void> = Promise.resolve()

  constructor(private readonly path: string) {}

  append(record: PermissionAuditRecord): Promise<void> {
    const line = `${JSON.stringify(record)}\n`
    const written = this.tail.then(() => this.write(line))
    this.tail = written.catch(() => {})
    return written
  }

  private async write(line: string): Promise<void> {
    try {
      this.directory ??= mkdir(dirname(this.path), {mode: 0o700, recursive: true})
      await this.directory
      await appendFile(this.path, line, {mode: 0o600})
    } catch (error) {
      this.directory = undefined
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message
      throw new Error(
        `cannot write the audit log ${this.path} (${code}): make it a writable file, or set XDG_DATA_HOME to a writable directory`,
        {cause: error},
      )
    }
  }
}
