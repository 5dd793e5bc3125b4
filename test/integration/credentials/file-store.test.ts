import {spawnSync} from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {FileCredentialStore} from '../../../src/adapters/credentials/file-store.js'
import type {Credential} from '../../../src/core/auth/credentials.js'
import {UserError} from '../../../src/core/errors.js'

const CANARY = 'CANARY-SECRET-9c1d'
const apiKey: Credential = {key: `sk-${CANARY}`, type: 'api_key'}
const oauth: Credential = {
  accessToken: `at-${CANARY}`,
  account: 'me@example.com',
  expiresAt: 1_700_000_000_000,
  refreshToken: `rt-${CANARY}`,
  type: 'oauth',
}

/** Everything an error shows the user; the canary must be in none of it. */
function shown(error: unknown): string {
  const {cause, hint, message} = error as UserError
  return `${message} ${hint} ${String(cause)}`
}

async function failure(promise: Promise<unknown>): Promise<UserError> {
  const error = await promise.then(
    () => undefined,
    (error_: unknown) => error_,
  )
  expect(error).toBeInstanceOf(UserError)
  expect(shown(error)).not.toContain(CANARY)
  return error as UserError
}

describe('FileCredentialStore', () => {
  let root: string
  let dir: string
  let path: string
  let warnings: string[]
  let store: FileCredentialStore

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'hanzo-credentials-'))
    dir = join(root, 'config', 'hanzo')
    path = join(dir, 'credentials.json')
    warnings = []
    store = new FileCredentialStore({onWarning: (warning) => warnings.push(warning), path})
  })
  afterEach(() => {
    chmodSync(root, 0o700)
    rmSync(root, {force: true, recursive: true})
  })

  it('is empty while there is no file, and creates nothing by reading', async () => {
    expect(await store.get('hanzo')).toBeUndefined()
    expect(await store.list()).toEqual([])
    expect(existsSync(dir)).toBe(false)
  })

  it('round-trips credentials in the documented format, 0700 dir and 0600 file', async () => {
    await store.store('openai', apiKey)
    await store.store('hanzo', oauth)
    expect(await store.get('openai')).toEqual(apiKey)
    expect(await new FileCredentialStore({path}).get('hanzo')).toEqual(oauth)
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({providers: {hanzo: oauth, openai: apiKey}, version: 1})
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(readdirSync(dir)).toEqual(['credentials.json'])
    expect(await store.list()).toEqual([
      {account: 'me@example.com', expiresAt: oauth.expiresAt, hasRefreshToken: true, provider: 'hanzo', type: 'oauth'},
      {provider: 'openai', type: 'api_key'},
    ])
    expect(JSON.stringify(await store.list())).not.toContain(CANARY)
    expect(await store.delete('openai')).toBe(true)
    expect(await store.delete('openai')).toBe(false)
    expect(await store.get('openai')).toBeUndefined()
    expect(await store.get('hanzo')).toEqual(oauth)
    expect(warnings).toEqual([])
  })

  it('repairs a file others could read, with a warning', async () => {
    await store.store('hanzo', oauth)
    chmodSync(path, 0o644)
    expect(await store.get('hanzo')).toEqual(oauth)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(path)
    expect(warnings[0]).toContain('0644')
    expect(warnings[0]).not.toContain(CANARY)
  })

  it.skipIf(process.platform === 'win32')(
    'tightens a config dir others may enter to 0700 when it first writes, with a warning',
    async () => {
      mkdirSync(dir, {mode: 0o755, recursive: true})
      chmodSync(dir, 0o755)
      expect(await store.get('hanzo')).toBeUndefined()
      expect(statSync(dir).mode & 0o777).toBe(0o755)
      expect(warnings).toEqual([])
      await store.store('hanzo', oauth)
      expect(statSync(dir).mode & 0o777).toBe(0o700)
      expect(warnings).toEqual([`${dir} was open to other users (mode 0755); it is now 0700`])
      await store.store('openai', apiKey)
      expect(warnings).toHaveLength(1)
    },
  )

  it('refuses a symbolic link at the file and leaves its target alone', async () => {
    mkdirSync(dir, {recursive: true})
    const target = join(root, 'elsewhere.json')
    const content = JSON.stringify({providers: {hanzo: oauth}, version: 1})
    writeFileSync(target, content, {mode: 0o644})
    symlinkSync(target, path)
    expect((await failure(store.get('hanzo'))).message).toMatch(/symbolic link/)
    expect((await failure(store.store('hanzo', apiKey))).message).toMatch(/symbolic link/)
    expect(readFileSync(target, 'utf8')).toBe(content)
    expect(statSync(target).mode & 0o777).toBe(0o644)
  })

  it('refuses a symbolically linked config dir and leaves its target alone', async () => {
    const real = join(root, 'real-hanzo')
    mkdirSync(real)
    mkdirSync(join(root, 'config'))
    symlinkSync(real, dir)
    expect((await failure(store.get('hanzo'))).message).toMatch(/symbolic link/)
    expect((await failure(store.store('hanzo', apiKey))).message).toMatch(/symbolic link/)
    expect(readdirSync(real)).toEqual([])
  })

  it('refuses a directory or a FIFO at the file', async () => {
    mkdirSync(path, {recursive: true})
    expect((await failure(store.get('hanzo'))).message).toMatch(/not a regular file/)
    rmSync(path, {recursive: true})
    if (spawnSync('mkfifo', [path]).status !== 0) return
    expect((await failure(store.get('hanzo'))).message).toMatch(/not a regular file/)
  })

  it('names a malformed file without printing it', async () => {
    mkdirSync(dir, {recursive: true})
    const cases = [
      `{"version": 1, "providers": {"hanzo": {"type": "oauth", "accessToken": "${CANARY}"`,
      `${CANARY}`,
      JSON.stringify({providers: {hanzo: {accessToken: CANARY, expiresAt: CANARY, type: 'oauth'}}, version: 1}),
      JSON.stringify({providers: {hanzo: {key: CANARY, type: CANARY}}, version: 1}),
      JSON.stringify({providers: [CANARY], version: 1}),
      JSON.stringify({providers: {}, version: CANARY}),
      '',
    ]
    for (const text of cases) {
      writeFileSync(path, text, {mode: 0o600})
      const error = await failure(store.get('hanzo'))
      expect(error.message).toContain(path)
    }

    writeFileSync(path, JSON.stringify({providers: {}, version: 2}), {mode: 0o600})
    expect((await failure(store.get('hanzo'))).message).toMatch(/newer hanzo-dev/)
  })

  it('breaks a stale lock: a dead holder, or one held too long', async () => {
    await store.store('hanzo', apiKey)
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {encoding: 'utf8'})
    writeFileSync(`${path}.lock`, JSON.stringify({createdAt: Date.now(), pid: Number(dead.stdout), token: 'x'}))
    await store.store('hanzo', oauth)
    expect(await store.get('hanzo')).toEqual(oauth)
    writeFileSync(`${path}.lock`, JSON.stringify({createdAt: Date.now() - 60_000, pid: process.pid, token: 'x'}))
    await store.store('hanzo', apiKey)
    expect(await store.get('hanzo')).toEqual(apiKey)
    expect(readdirSync(dir)).toEqual(['credentials.json'])
  })

  it('gives up on a live holder with a clear error, and leaves its lock', async () => {
    await store.store('hanzo', apiKey)
    const held = JSON.stringify({createdAt: Date.now(), pid: process.pid, token: 'held'})
    writeFileSync(`${path}.lock`, held)
    const impatient = new FileCredentialStore({lock: {timeoutMs: 50}, path})
    const error = await failure(impatient.store('hanzo', oauth))
    expect(error.message).toContain(`process ${process.pid}`)
    expect(error.hint).toContain(`${path}.lock`)
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe(held)
    expect(await store.get('hanzo')).toEqual(apiKey)
  })

  it('serializes concurrent writers in one process: no update is lost', async () => {
    await Promise.all(Array.from({length: 8}, (_, i) => store.store(`p${i}`, {key: `k${i}`, type: 'api_key'})))
    expect((await store.list()).map((summary) => summary.provider)).toEqual([
      'p0',
      'p1',
      'p2',
      'p3',
      'p4',
      'p5',
      'p6',
      'p7',
    ])
  })
})
