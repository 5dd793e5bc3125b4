import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {openCredentialStore} from '../../../src/adapters/credentials/open-store.js'
import type {Credential} from '../../../src/core/auth/credentials.js'

// The real `@napi-rs/keyring`, no port in between: what a Linux user without a desktop session
// gets, and what one with GNOME Keyring gets.
const CANARY = 'CANARY-SECRET-d07a'
const apiKey: Credential = {key: `sk-${CANARY}`, type: 'api_key'}
const oauth: Credential = {
  accessToken: `at-${CANARY}`,
  expiresAt: 1_700_000_000_000,
  refreshToken: `rt-${CANARY}`,
  type: 'oauth',
}

const here = import.meta.dirname
const hooks = pathToFileURL(join(here, 'ts-hooks.mjs')).href
const openStore = pathToFileURL(resolve(here, '../../../src/adapters/credentials/open-store.ts')).href
const keychainStore = pathToFileURL(resolve(here, '../../../src/adapters/credentials/keychain-store.ts')).href

// Debian: dbus (dbus-run-session, dbus-send) and gnome-keyring.
const secretService =
  spawnSync('sh', ['-c', 'command -v dbus-run-session && command -v dbus-send && command -v gnome-keyring-daemon'])
    .status === 0
if (process.platform === 'linux' && !secretService)
  console.warn('skipping the Secret Service test: install the Debian packages dbus and gnome-keyring')

let root: string
let path: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'hanzo-keychain-real-'))
  path = join(root, 'config', 'hanzo', 'credentials.json')
})
afterEach(() => rmSync(root, {force: true, recursive: true}))

describe.skipIf(process.platform !== 'linux')('the real keyring module without a Secret Service', () => {
  const saved = process.env.DBUS_SESSION_BUS_ADDRESS
  // A bus that is not there, even on a desktop: the probe must never reach a real keyring.
  beforeEach(() => {
    process.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${join(root, 'no-bus')}`
  })
  afterEach(() => {
    if (saved === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS
    else process.env.DBUS_SESSION_BUS_ADDRESS = saved
  })

  it('fails the probe, warns once, and keeps credentials in the 0600 file', async () => {
    const warnings: string[] = []
    const opened = await openCredentialStore({
      env: {},
      onWarning: (warning) => warnings.push(warning),
      path,
      platform: 'linux',
      setting: 'keychain',
    })
    expect(opened.backend).toBe('file')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^Cannot write to the Secret Service keyring \(.+\); credentials go to /)
    expect(warnings[0].endsWith(path)).toBe(true)
    await opened.store.store('hanzo', oauth)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(path, 'utf8')).providers.hanzo).toEqual(oauth)
    expect(await opened.store.get('hanzo')).toEqual(oauth)
  })
})

/**
 * The store in child processes under `dbus-run-session`, with a GNOME Keyring of their own
 * (unlocked with a throwaway password: with an empty one it creates no default collection). The
 * native module settles on one D-Bus session per process, so the keyring cannot be swapped in
 * under this test process. Each phase is a new process: what one writes, the next one reads.
 */
describe.skipIf(!secretService)('a real Secret Service: GNOME Keyring on a private D-Bus session', () => {
  // Ready once the keyring owns its bus name and has the login keyring as its default collection.
  // Asking it anything before it owns the name would have D-Bus start another, locked one.
  const session = `
    set -e
    printf 'throwaway' | gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
    keyring=$!
    trap 'kill "$keyring"' EXIT
    owned() { dbus-send --session --print-reply=literal --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets | grep -q true; }
    unlocked() { dbus-send --session --print-reply=literal --dest=org.freedesktop.secrets /org/freedesktop/secrets org.freedesktop.Secret.Service.ReadAlias string:default | grep -q collection; }
    tries=0
    until owned && unlocked; do
      tries=$((tries + 1))
      [ "$tries" -lt 400 ] || { echo 'GNOME Keyring did not start' >&2; exit 1; }
      sleep 0.05
    done
    node "$1" write "$2"
    node "$1" read "$2"
  `
  const phases = `
    import {existsSync} from 'node:fs'
    import {register} from 'node:module'
    register(${JSON.stringify(hooks)})
    const {openCredentialStore} = await import(${JSON.stringify(openStore)})
    const {loadKeyring} = await import(${JSON.stringify(keychainStore)})
    const [phase, path] = process.argv.slice(2)
    const warnings = []
    const {backend, store} = await openCredentialStore({env: {}, onWarning: (w) => warnings.push(w), path, platform: 'linux', setting: 'keychain'})
    const report = {backend, phase, warnings}
    if (phase === 'write') {
      await store.store('hanzo', ${JSON.stringify(oauth)})
      await store.store('openai', ${JSON.stringify(apiKey)})
    } else {
      report.hanzo = await store.get('hanzo')
      report.listed = (await store.list()).map((summary) => summary.provider)
      report.deleted = await store.delete('openai')
      report.openai = (await store.get('openai')) ?? null
    }
    report.fileExists = existsSync(path)
    const items = await (await loadKeyring()).findCredentials('hanzo-dev')
    report.items = Object.fromEntries(items.map(({account, password}) => [account, JSON.parse(password)]))
    console.log(JSON.stringify(report))
  `

  it('keeps credentials in the keyring across processes, never in the file', () => {
    const home = join(root, 'home')
    mkdirSync(join(home, 'run'), {mode: 0o700, recursive: true})
    const script = join(root, 'phases.mjs')
    writeFileSync(script, phases)
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: home,
      XDG_DATA_HOME: join(home, 'data'),
      XDG_RUNTIME_DIR: join(home, 'run'),
    }
    delete env.DBUS_SESSION_BUS_ADDRESS
    const run = spawnSync('dbus-run-session', ['--', 'sh', '-c', session, 'sh', script, path], {
      encoding: 'utf8',
      env,
      timeout: 50_000,
    })
    expect(run.status, run.stderr).toBe(0)
    const [write, read] = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(write).toEqual({
      backend: 'keychain',
      fileExists: false,
      items: {hanzo: oauth, openai: apiKey},
      phase: 'write',
      warnings: [],
    })
    expect(read).toEqual({
      backend: 'keychain',
      deleted: true,
      fileExists: false,
      hanzo: oauth,
      items: {hanzo: oauth},
      listed: ['hanzo', 'openai'],
      openai: null,
      phase: 'read',
      warnings: [],
    })
    expect(existsSync(path)).toBe(false)
  })
})
