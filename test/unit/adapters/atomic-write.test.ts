import {chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {writeFileAtomic} from '../../../src/adapters/atomic-write.js'
import {UserError} from '../../../src/core/errors.js'

describe('writeFileAtomic', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hanzo-atomic-'))
  })
  afterEach(() => rmSync(dir, {force: true, recursive: true}))

  it('creates a file with the requested mode and leaves no temp file', async () => {
    const file = join(dir, 'credentials.json')
    await writeFileAtomic(file, '{}\n', {mode: 0o600})
    expect(readFileSync(file, 'utf8')).toBe('{}\n')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir)).toEqual(['credentials.json'])
  })

  it('replaces a file keeping its mode exactly', async () => {
    const file = join(dir, 'settings.json')
    writeFileSync(file, 'old')
    chmodSync(file, 0o640)
    await writeFileAtomic(file, 'new', {mode: 0o600})
    expect(readFileSync(file, 'utf8')).toBe('new')
    expect(statSync(file).mode & 0o777).toBe(0o640)
  })

  it('gives an existing file the requested mode with forceMode (repairing a private file)', async () => {
    const file = join(dir, 'settings.json')
    writeFileSync(file, 'old')
    chmodSync(file, 0o644)
    await writeFileAtomic(file, 'new', {forceMode: true, mode: 0o600})
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('refuses to write through a symbolic link', async () => {
    const target = join(dir, 'target.json')
    writeFileSync(target, 'kept')
    const link = join(dir, 'settings.json')
    symlinkSync(target, link)
    await expect(writeFileAtomic(link, 'new')).rejects.toBeInstanceOf(UserError)
    expect(readFileSync(target, 'utf8')).toBe('kept')
  })

  it('leaves nothing behind when it cannot write', async () => {
    await expect(writeFileAtomic(join(dir, 'nope', 'settings.json'), 'x')).rejects.toMatchObject({code: 'ENOENT'})
    expect(readdirSync(dir)).toEqual([])
  })
})
