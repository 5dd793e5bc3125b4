import {mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {SessionOwners} from '../../../../src/server/app/session-owners.js'

describe('SessionOwners', () => {
  let dir: string
  let warnings: string[]
  const warn = (message: string) => void warnings.push(message)
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hanzo-owners-'))
    warnings = []
  })
  afterEach(() => rmSync(dir, {force: true, recursive: true}))

  it('keeps tags across loads, in a private file, merged with what another server wrote', async () => {
    const path = join(dir, 'app-server', 'owners.json')
    const first = await SessionOwners.load(path, warn)
    expect(first.get('s1')).toBeUndefined()
    await first.set('s1', 'alice')
    const other = await SessionOwners.load(path, warn)
    await other.set('s2', 'bob')
    await first.set('s3', 'alice')
    const again = await SessionOwners.load(path, warn)
    expect([again.get('s1'), again.get('s2'), again.get('s3')]).toEqual(['alice', 'bob', 'alice'])
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(warnings).toEqual([])
  })

  it('says so when the file is not a map of owners, and starts empty', async () => {
    const path = join(dir, 'owners.json')
    writeFileSync(path, '["alice"]')
    const owners = await SessionOwners.load(path, warn)
    expect(owners.get('0')).toBeUndefined()
    expect(warnings).toEqual([
      `${path} is not a JSON object of session ids and owners: sessions saved before have no owner now`,
    ])
    await owners.set('s1', 'carol')
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({s1: 'carol'})
  })
})
