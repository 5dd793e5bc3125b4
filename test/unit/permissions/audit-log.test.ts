import {readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {AuditLog, auditLogPath} from '../../../src/adapters/audit-log.js'
import type {PermissionAuditRecord} from '../../../src/core/permissions/index.js'
import {useSandboxDirs} from '../../helpers/cli.js'

const record = (toolName: string, reason: string | null = null): PermissionAuditRecord => ({
  decision: 'allow',
  mode: 'allow',
  reason,
  rule_matched: 'fs_read',
  session_id: 'session-1',
  timestamp: '2026-01-02T03:04:05.000Z',
  tool_name: toolName,
})

describe('AuditLog', () => {
  const dirs = useSandboxDirs('hanzo-audit-', 'data')

  it('creates the data dir 0700 and the file 0600, one JSON record per line', async () => {
    const dataDir = join(dirs.data, 'hanzo-dev')
    const path = auditLogPath(dataDir)
    const log = new AuditLog(path)
    await log.append(record('fs_read'))
    await log.append(record('exec', 'line one\nline two'))
    expect(path).toBe(join(dataDir, 'audit.jsonl'))
    expect(statSync(dataDir).mode & 0o777).toBe(0o700)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    const lines = readFileSync(path, 'utf8').split('\n')
    expect(lines.at(-1)).toBe('')
    expect(lines.slice(0, -1).map((line) => JSON.parse(line))).toEqual([
      record('fs_read'),
      record('exec', 'line one\nline two'),
    ])
  })

  it('appends to an existing log and keeps the order of appends made at once', async () => {
    const path = join(dirs.data, 'audit.jsonl')
    writeFileSync(path, `${JSON.stringify(record('earlier'))}\n`, {mode: 0o600})
    const log = new AuditLog(path)
    const names = Array.from({length: 50}, (_, index) => `tool_${index}`)
    await Promise.all(names.map((name) => log.append(record(name))))
    const logged = readFileSync(path, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as PermissionAuditRecord).tool_name)
    expect(logged).toEqual(['earlier', ...names])
  })

  it('rejects each record it cannot write, naming the file and what to do, and writes again once it can', async () => {
    const blocker = join(dirs.data, 'not-a-dir')
    writeFileSync(blocker, '')
    const path = join(blocker, 'audit.jsonl')
    const log = new AuditLog(path)
    const expected = `cannot write the audit log ${path} (EEXIST): make it a writable file, or set XDG_DATA_HOME to a writable directory`
    await expect(log.append(record('fs_read'))).rejects.toThrow(expected)
    await expect(log.append(record('exec'))).rejects.toThrow(expected)
    rmSync(blocker)
    await log.append(record('fs_write'))
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(record('fs_write'))
  })
})
