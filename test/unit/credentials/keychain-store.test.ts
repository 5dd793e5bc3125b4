import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {FileCredentialStore} from '../../../src/adapters/credentials/file-store.js'
import {KeychainCredentialStore, type KeyringModule} from '../../../src/adapters/credentials/keychain-store.js'
import {openCredentialStore, type OpenCredentialStoreOptions} from '../../../src/adapters/credentials/open-store.js'
import type {Credential} from '../../../src/core/auth/credentials.js'
import {UserError} from '../../../src/core/errors.js'
import {MemoryKeyring} from './memory-keyring.js'

const CANARY = 'CANARY-SECRET-4e2f'
const apiKey: Credential = {key: `sk-${CANARY}`, type: 'api_key'}
const oauth: Credential = {
  accessToken: `at-${CANARY}`,
  account: 'me@example.com',
  expiresAt: 1_700_000_000_000,
  refreshToken: `rt-${CANARY}`,
  type: 'oauth',
}

async function failure(promise: Promise<unknown>): Promise<UserError> {
  const error = await promise.then(
    () => undefined,
    (error_: unknown) => error_,
  )
  expect(error).toBeInstanceOf(UserError)
  const {cause, hint, message} = error as UserError
  expect(`${message} ${hint} ${String(cause)}`).not.toContain(CANARY)
  return error as UserError
}

let root: string
let path: string
let keyring: MemoryKeyring
let warnings: string[]

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hanzo-keychain-'))
  path = join(root, 'config', 'hanzo', 'credentials.json')
  keyring = new MemoryKeyring()
  warnings = []
})
afterEach(() => rmSync(root, {force: true, recursive: true}))

function keychainStore(options: {keyring?: KeyringModule; timeoutMs?: number} = {}): KeychainCredentialStore {
  return new KeychainCredentialStore({
    keyring: options.keyring ?? keyring,
    lock: {timeoutMs: options.timeoutMs},
    lockPath: `${path}.lock`,
    name: 'Test Keychain',
  })
}

function open(options: Partial<OpenCredentialStoreOptions> = {}) {
  return openCredentialStore({
    env: {},
    loadKeyring: async () => keyring,
    onWarning: (warning) => warnings.push(warning),
    path,
    platform: 'darwin',
    ...options,
  })
}

describe('KeychainCredentialStore', () => {
  it('keeps one item per provider, as JSON under the service "hanzo-dev"', async () => {
    const store = keychainStore()
    await store.store('openai', apiKey)
    await store.store('hanzo', oauth)
    expect(JSON.parse(keyring.items.get('hanzo-dev/hanzo')!)).toEqual(oauth)
    expect(await store.get('openai')).toEqual(apiKey)
    expect(await keychainStore().get('hanzo')).toEqual(oauth)
    expect(await store.get('anthropic')).toBeUndefined()
    expect(existsSync(path)).toBe(false)
    expect(existsSync(`${path}.lock`)).toBe(false)
  })

  it('lists the providers without secrets, and without the probe or other services', async () => {
    const store = keychainStore()
    await store.store('openai', apiKey)
    await store.store('hanzo', oauth)
    keyring.items.set('hanzo-dev/__probe__', 'left by a crashed probe')
    keyring.items.set('other-tool/x', 'not ours')
    const list = await store.list()
    expect(list).toEqual([
      {account: 'me@example.com', expiresAt: oauth.expiresAt, hasRefreshToken: true, provider: 'hanzo', type: 'oauth'},
      {provider: 'openai', type: 'api_key'},
    ])
    expect(JSON.stringify(list)).not.toContain(CANARY)
  })

  it('deletes an item and says whether there was one', async () => {
    const store = keychainStore()
    await store.store('hanzo', oauth)
    expect(await store.delete('hanzo')).toBe(true)
    expect(await store.delete('hanzo')).toBe(false)
    expect(keyring.items.size).toBe(0)
  })

  it('names a malformed item without quoting it', async () => {
    const store = keychainStore()
    for (const value of [
      `{"type": "oauth", "accessToken": "${CANARY}"`,
      CANARY,
      JSON.stringify({key: CANARY, type: CANARY}),
    ]) {
      keyring.items.set('hanzo-dev/hanzo', value)
      const error = await failure(store.get('hanzo'))
      expect(error.message).toContain('hanzo')
      expect(error.message).toContain('Test Keychain')
      await failure(store.list())
    }
  })

  it('turns a keychain failure into one line naming the keychain and the reason', async () => {
    keyring.failing = new Set(['get', 'set', 'delete', 'find'])
    const store = keychainStore()
    const read = await failure(store.get('hanzo'))
    expect(read.message).toBe(
      "Cannot read hanzo from the Test Keychain (Couldn't access platform storage: AccessDenied)",
    )
    expect(read.hint).toMatch(/unlock the keychain/)
    expect((await failure(store.store('hanzo', oauth))).message).toMatch(/^Cannot write hanzo to the Test Keychain/)
    expect((await failure(store.delete('hanzo'))).message).toMatch(/^Cannot delete hanzo from the Test Keychain/)
    expect((await failure(store.list())).message).toMatch(/^Cannot list the credentials in the Test Keychain/)
  })

  it('takes the same lock file as the file store', async () => {
    mkdirSync(join(root, 'config', 'hanzo'), {recursive: true})
    writeFileSync(`${path}.lock`, JSON.stringify({createdAt: Date.now(), pid: process.pid, token: 'held'}))
    const error = await failure(keychainStore({timeoutMs: 50}).store('hanzo', oauth))
    expect(error.message).toContain(`process ${process.pid}`)
    expect(keyring.items.size).toBe(0)
    rmSync(`${path}.lock`)
    const store = keychainStore()
    await store.withLock(async (locked) => {
      expect(existsSync(`${path}.lock`)).toBe(true)
      await locked.store('hanzo', oauth)
      expect(await locked.get('hanzo')).toEqual(oauth)
    })
    expect(existsSync(`${path}.lock`)).toBe(false)
  })

  it('probes with a throwaway item it removes', async () => {
    await keychainStore().probe()
    expect(keyring.calls).toEqual(['set hanzo-dev/__probe__', 'get hanzo-dev/__probe__', 'delete hanzo-dev/__probe__'])
    expect(keyring.items.size).toBe(0)
    keyring.failing.add('get')
    expect((await failure(keychainStore().probe())).message).toMatch(/^Cannot read from the Test Keychain/)
    expect(keyring.items.size).toBe(0)
    const forgetful: KeyringModule = {
      entry: () => ({deletePassword: async () => false, getPassword: async () => null, setPassword: async () => {}}),
      findCredentials: async () => [],
    }
    expect((await failure(keychainStore({keyring: forgetful}).probe())).message).toMatch(/did not keep/)
  })
})

describe('openCredentialStore: which backend', () => {
  it('is the file on Linux unless asked, without loading the keychain', async () => {
    let loaded = false
    const opened = await open({loadKeyring: async () => ((loaded = true), keyring), platform: 'linux'})
    expect(opened.backend).toBe('file')
    expect(opened.store).toBeInstanceOf(FileCredentialStore)
    expect(loaded).toBe(false)
    expect(warnings).toEqual([])
  })

  it('is the keychain on Linux when asked and the probe passes', async () => {
    const opened = await open({platform: 'linux', setting: 'keychain'})
    expect(opened.backend).toBe('keychain')
    expect(keyring.calls).toEqual(['set hanzo-dev/__probe__', 'get hanzo-dev/__probe__', 'delete hanzo-dev/__probe__'])
    await opened.store.store('hanzo', oauth)
    expect(keyring.items.has('hanzo-dev/hanzo')).toBe(true)
    expect(warnings).toEqual([])
  })

  it('falls back to the 0600 file, with one warning, when the probe fails on Linux', async () => {
    for (const failing of ['entry', 'set'] as const) {
      keyring.failing = new Set([failing])
      warnings = []
      const opened = await open({platform: 'linux', setting: 'keychain'})
      expect(opened.backend).toBe('file')
      expect(warnings).toEqual([
        `Cannot write to the Secret Service keyring (Couldn't access platform storage: AccessDenied); credentials go to ${path}`,
      ])
    }

    const opened = await open({platform: 'linux', setting: 'keychain'})
    await opened.store.store('hanzo', oauth)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(path, 'utf8')).providers.hanzo).toEqual(oauth)
  })

  it('falls back to the file, with one warning, when the keychain module does not load', async () => {
    const opened = await open({
      loadKeyring: async () => {
        throw new Error('Cannot find native binding.\nnpm has a bug related to optional dependencies')
      },
    })
    expect(opened.backend).toBe('file')
    expect(warnings).toEqual([`Cannot use the macOS Keychain (Cannot find native binding.); credentials go to ${path}`])
  })

  it('is the keychain by default on macOS and Windows, without a probe', async () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const opened = await open({platform})
      expect(opened.backend).toBe('keychain')
    }

    expect(keyring.calls).toEqual([])
    expect(warnings).toEqual([])
  })

  it('is the file everywhere when the setting or HANZO_CREDENTIALS_STORE says so; the variable wins', async () => {
    expect((await open({setting: 'file'})).backend).toBe('file')
    expect((await open({env: {HANZO_CREDENTIALS_STORE: 'file'}, platform: 'win32', setting: 'keychain'})).backend).toBe(
      'file',
    )
    expect((await open({env: {HANZO_CREDENTIALS_STORE: 'keychain'}, platform: 'linux', setting: 'file'})).backend).toBe(
      'keychain',
    )
    expect((await open({env: {HANZO_CREDENTIALS_STORE: ''}, platform: 'linux'})).backend).toBe('file')
    const error = await failure(open({env: {HANZO_CREDENTIALS_STORE: 'vault'}}))
    expect(error.message).toContain('HANZO_CREDENTIALS_STORE')
  })
})

describe('the keychain backend with the file behind it', () => {
  const fileStore = () => new FileCredentialStore({path})

  it('writes to the keychain only', async () => {
    const {store} = await open()
    await store.store('hanzo', oauth)
    expect(await store.get('hanzo')).toEqual(oauth)
    expect(existsSync(path)).toBe(false)
    expect(warnings).toEqual([])
  })

  it('reads the file silently when the keychain has nothing: logins kept there before still count', async () => {
    await fileStore().store('hanzo', oauth)
    const {store} = await open()
    expect(await store.get('hanzo')).toEqual(oauth)
    expect(await store.get('openai')).toBeUndefined()
    expect(warnings).toEqual([])
  })

  it('reads the file, with one warning, when the keychain fails: never logged out', async () => {
    await fileStore().store('hanzo', oauth)
    for (const failing of ['entry', 'get'] as const) {
      const {store} = await open()
      keyring.failing = new Set([failing])
      warnings = []
      expect(await store.get('hanzo')).toEqual(oauth)
      expect(await store.get('hanzo')).toEqual(oauth)
      expect(warnings).toEqual([
        `Cannot read hanzo from the macOS Keychain (Couldn't access platform storage: AccessDenied); reading ${path} instead`,
      ])
    }
  })

  it('reads the file, with a warning, past a malformed keychain item', async () => {
    await fileStore().store('hanzo', apiKey)
    keyring.items.set('hanzo-dev/hanzo', CANARY)
    const {store} = await open()
    expect(await store.get('hanzo')).toEqual(apiKey)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('macOS Keychain')
    expect(warnings[0]).not.toContain(CANARY)
  })

  it('writes to the 0600 file, with a warning, when the keychain cannot be written', async () => {
    const {store} = await open()
    keyring.failing.add('set')
    await store.store('hanzo', oauth)
    expect(warnings).toEqual([
      `Cannot write hanzo to the macOS Keychain (Couldn't access platform storage: AccessDenied); credentials go to ${path}`,
    ])
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(await fileStore().get('hanzo')).toEqual(oauth)
    expect(await store.get('hanzo')).toEqual(oauth)
  })

  it('removes the file copy once the keychain takes a write: a rotated refresh token never comes back', async () => {
    await fileStore().store('hanzo', apiKey)
    await fileStore().store('openai', apiKey)
    const {store} = await open()
    await store.store('hanzo', oauth)
    expect(await fileStore().get('hanzo')).toBeUndefined()
    expect(await fileStore().get('openai')).toEqual(apiKey)
  })

  it('deletes from both', async () => {
    await fileStore().store('hanzo', apiKey)
    const {store} = await open()
    keyring.items.set('hanzo-dev/hanzo', JSON.stringify(oauth))
    expect(await store.delete('hanzo')).toBe(true)
    expect(keyring.items.size).toBe(0)
    expect(await fileStore().get('hanzo')).toBeUndefined()
    expect(await store.get('hanzo')).toBeUndefined()
    expect(await store.delete('hanzo')).toBe(false)
  })

  it('says so when the keychain keeps a credential it was asked to delete', async () => {
    await fileStore().store('hanzo', apiKey)
    const {store} = await open()
    keyring.items.set('hanzo-dev/hanzo', JSON.stringify(oauth))
    keyring.failing.add('delete')
    expect((await failure(store.delete('hanzo'))).message).toMatch(/^Cannot delete hanzo from the macOS Keychain/)
    expect(await fileStore().get('hanzo')).toBeUndefined()
  })

  it('lists both, the keychain winning on a provider in both', async () => {
    await fileStore().store('hanzo', apiKey)
    await fileStore().store('openai', apiKey)
    const {store} = await open()
    keyring.items.set('hanzo-dev/hanzo', JSON.stringify(oauth))
    keyring.items.set('hanzo-dev/anthropic', JSON.stringify(apiKey))
    expect((await store.list()).map(({provider, type}) => `${provider}:${type}`)).toEqual([
      'anthropic:api_key',
      'hanzo:oauth',
      'openai:api_key',
    ])
    keyring.failing.add('find')
    expect((await store.list()).map(({provider, type}) => `${provider}:${type}`)).toEqual([
      'hanzo:api_key',
      'openai:api_key',
    ])
    expect(warnings).toEqual([
      `Cannot list the credentials in the macOS Keychain (Couldn't access platform storage: AccessDenied); listing ${path} only`,
    ])
  })

  it('runs withLock under the one lock file, with reads and writes reaching both', async () => {
    await fileStore().store('openai', apiKey)
    const {store} = await open()
    await store.withLock(async (locked) => {
      expect(existsSync(`${path}.lock`)).toBe(true)
      expect(await locked.get('openai')).toEqual(apiKey)
      await locked.store('hanzo', oauth)
    })
    expect(existsSync(`${path}.lock`)).toBe(false)
    expect(JSON.parse(keyring.items.get('hanzo-dev/hanzo')!)).toEqual(oauth)
  })

  it('serializes concurrent writers: no update is lost', async () => {
    const {store} = await open()
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
