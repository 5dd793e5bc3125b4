import {type ChildProcess, spawn} from 'node:child_process'
import {
  chownSync,
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join, resolve} from 'node:path'
import {pathToFileURL} from 'node:url'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {FileCredentialStore} from '../../../src/adapters/credentials/file-store.js'
import {waitUntil} from '../../helpers/processes.js'

// The children run the compiled store (`npx tsc -b tsconfig.build.json`): a child process cannot
// import the TypeScript sources without a loader this repository does not have.
const dist = resolve(import.meta.dirname, '../../../dist')
const storeModule = pathToFileURL(join(dist, 'adapters/credentials/file-store.js')).href
const refreshModule = pathToFileURL(join(dist, 'core/auth/refresh.js')).href
const built =
  existsSync(join(dist, 'adapters/credentials/file-store.js')) && existsSync(join(dist, 'core/auth/refresh.js'))
if (!built) console.warn('skipping credential process tests: dist is missing; run npx tsc -b tsconfig.build.json')

const CANARY = 'CANARY-SECRET-77ab'

interface Run {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

function start(
  script: string,
  args: string[],
  options: {uid?: number; gid?: number} = {},
): {child: ChildProcess; done: Promise<Run>; stdout: () => string} {
  const child = spawn(process.execPath, [script, ...args], {...options, stdio: ['ignore', 'pipe', 'pipe']})
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const done = new Promise<Run>((resolve_) =>
    child.on('close', (code, signal) => resolve_({code, signal, stderr, stdout})),
  )
  return {child, done, stdout: () => stdout}
}

describe.skipIf(!built)('the credential file across processes', () => {
  let root: string
  let path: string
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'hanzo-credential-processes-'))
    path = join(root, 'hanzo', 'credentials.json')
  })
  afterEach(() => {
    chmodSync(root, 0o700)
    rmSync(root, {force: true, recursive: true})
  })

  it('holds the old or the new credentials, never a part, when a writer is killed mid-write', async () => {
    const script = join(root, 'writer.mjs')
    writeFileSync(
      script,
      `
      import {FileCredentialStore} from ${JSON.stringify(storeModule)}
      const store = new FileCredentialStore({path: process.argv[2]})
      const padding = 'x'.repeat(2_000_000)
      for (let i = 1; ; i++) {
        await store.store('hanzo', {type: 'api_key', key: i + '-' + padding})
        process.stdout.write(i + '\\n')
      }
    `,
    )
    const store = new FileCredentialStore({path})
    const old = {key: 'old', type: 'api_key'} as const
    for (let round = 0; round < 3; round++) {
      await store.store('hanzo', old)
      const writer = start(script, [path])
      await waitUntil(() => writer.stdout().split('\n').length > 2, 'the writer has written twice')
      writer.child.kill('SIGKILL')
      expect((await writer.done).signal).toBe('SIGKILL')
      const credential = await store.get('hanzo')
      expect(credential?.type).toBe('api_key')
      const {key} = credential as {key: string}
      expect(key === 'old' || /^\d+-x{2000000}$/.test(key)).toBe(true)
    }

    // A killed writer's temp file (a copy of the secrets) goes with the next write.
    writeFileSync(join(dirname(path), `.credentials.json.99999.0123456789ab.tmp`), 'left by a killed writer', {
      mode: 0o600,
    })
    await store.store('hanzo', old)
    expect(readdirSync(dirname(path)).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  it('refreshes once when several processes find the same expired login', async () => {
    const side = join(root, 'grant.json')
    writeFileSync(side, JSON.stringify({count: 0, current: `rt-0-${CANARY}`}))
    await new FileCredentialStore({path}).store('hanzo', {
      accessToken: 'at-0',
      expiresAt: 1,
      refreshToken: `rt-0-${CANARY}`,
      type: 'oauth',
    })
    const go = join(root, 'go')
    const script = join(root, 'refresher.mjs')
    // The refresher is the grant's server: a used refresh token is invalid_grant, as with rotation.
    writeFileSync(
      script,
      `
      import {existsSync, readFileSync, writeFileSync} from 'node:fs'
      import {setTimeout as delay} from 'node:timers/promises'
      import {FileCredentialStore} from ${JSON.stringify(storeModule)}
      import {validCredential} from ${JSON.stringify(refreshModule)}
      const [path, side, go] = process.argv.slice(2)
      const store = new FileCredentialStore({path})
      process.stdout.write('ready\\n')
      while (!existsSync(go)) await delay(5)
      const refresh = async (credential) => {
        const grant = JSON.parse(readFileSync(side, 'utf8'))
        if (credential.refreshToken !== grant.current) throw Object.assign(new Error('invalid_grant'), {code: 'invalid_grant'})
        await delay(100)
        const count = grant.count + 1
        const current = 'rt-' + count + '-${CANARY}'
        writeFileSync(side, JSON.stringify({count, current}))
        return {type: 'oauth', accessToken: 'at-' + count, refreshToken: current, expiresAt: Date.now() + 3_600_000}
      }
      const credential = await validCredential(store, 'hanzo', refresh, {now: Date.now})
      process.stdout.write(credential.accessToken + '\\n')
    `,
    )
    const children = Array.from({length: 4}, () => start(script, [path, side, go]))
    await waitUntil(() => children.every((child) => child.stdout().startsWith('ready')), 'every child is ready')
    writeFileSync(go, '')
    const runs = await Promise.all(children.map((child) => child.done))
    for (const run of runs) {
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      expect(run.stdout).toBe('ready\nat-1\n')
    }

    expect(JSON.parse(readFileSync(side, 'utf8')).count).toBe(1)
    expect(await new FileCredentialStore({path}).get('hanzo')).toMatchObject({
      accessToken: 'at-1',
      refreshToken: `rt-1-${CANARY}`,
    })
  })

  it('reports a read-only config dir clearly and keeps the old file', async () => {
    await new FileCredentialStore({path}).store('hanzo', {key: `old-${CANARY}`, type: 'api_key'})
    const dir = join(root, 'hanzo')
    // root may write anywhere: the writer runs as nobody, who owns the files but not the right to
    // write. nobody may not reach the repository (a clone in a private temp dir), so it gets its own
    // copy of the compiled store and of the sdk it imports.
    const asUser = process.getuid?.() === 0 ? {gid: 65534, uid: 65534} : {}
    let module = storeModule
    if (asUser.uid !== undefined) {
      cpSync(dist, join(root, 'dist'), {recursive: true})
      cpSync(join(dist, '..', 'plugins', 'sdk', 'dist'), join(root, 'node_modules', '@hanzo-dev', 'sdk', 'dist'), {
        recursive: true,
      })
      cpSync(
        join(dist, '..', 'plugins', 'sdk', 'package.json'),
        join(root, 'node_modules', '@hanzo-dev', 'sdk', 'package.json'),
      )
      writeFileSync(join(root, 'package.json'), '{"type": "module"}')
      module = pathToFileURL(join(root, 'dist', 'adapters/credentials/file-store.js')).href
    }

    const script = join(root, 'readonly.mjs')
    writeFileSync(
      script,
      `
      import {FileCredentialStore} from ${JSON.stringify(module)}
      try {
        await new FileCredentialStore({path: process.argv[2]}).store('hanzo', {type: 'api_key', key: 'new-${CANARY}'})
        process.stdout.write('written')
      } catch (error) {
        process.stdout.write(JSON.stringify({hint: error.hint, message: error.message, name: error.name}))
      }
    `,
    )
    if (asUser.uid !== undefined) {
      for (const file of [root, dir, path, script]) chownSync(file, asUser.uid, asUser.gid)
    }

    chmodSync(dir, 0o500)
    const run = await start(script, [path], asUser).done
    chmodSync(dir, 0o700)
    const result = JSON.parse(run.stdout) as {name: string; message: string; hint: string}
    expect(result.name).toBe('UserError')
    expect(result.message).toMatch(/permission denied/)
    expect(result.message).toContain(dir)
    expect(`${result.message} ${result.hint}`).not.toContain(CANARY)
    expect(JSON.parse(readFileSync(path, 'utf8')).providers.hanzo.key).toBe(`old-${CANARY}`)
  })
})
