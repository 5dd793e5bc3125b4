import {mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {MAX_SETTINGS_BYTES, nodeConfigIO, readSettingsText} from '../../../src/adapters/config-io.js'
import {ConfigError} from '../../../src/core/config/index.js'

describe('reading settings files', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hanzo-config-io-'))
  })
  afterEach(() => rmSync(dir, {force: true, recursive: true}))

  it('reads a regular file (through a symlink too), and null when there is none', async () => {
    const file = join(dir, 'settings.json')
    writeFileSync(file, '{"model": "m"}')
    symlinkSync(file, join(dir, 'link.json'))
    expect(await nodeConfigIO.readJson(join(dir, 'link.json'))).toEqual({value: {model: 'm'}})
    expect(await readSettingsText(join(dir, 'missing.json'))).toBeNull()
  })

  it('refuses what is not a regular file, naming it, without blocking or reading it', async () => {
    mkdirSync(join(dir, 'settings.json'))
    await expect(readSettingsText(join(dir, 'settings.json'))).rejects.toThrow(
      /settings\.json: it is not a regular file/,
    )
    await expect(readSettingsText('/dev/zero')).rejects.toBeInstanceOf(ConfigError)
    await expect(nodeConfigIO.readJson('/dev/zero')).rejects.toThrow('Cannot use /dev/zero: it is not a regular file')
  })

  it('refuses a file larger than 1 MiB', async () => {
    const file = join(dir, 'settings.json')
    writeFileSync(file, `{"custom_instructions": "${'x'.repeat(MAX_SETTINGS_BYTES)}"}`)
    await expect(readSettingsText(file)).rejects.toThrow(/larger than 1 MiB/)
    await expect(nodeConfigIO.readJson(file)).rejects.toThrow(/larger than 1 MiB/)
  })
})
