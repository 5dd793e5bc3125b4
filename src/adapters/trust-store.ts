import {constants} from 'node:fs'
import {mkdir, open, realpath} from 'node:fs/promises'
import {dirname, join, resolve} from 'node:path'

import {ConfigError} from '../core/config/config-error.js'
import {loadConfig} from '../core/config/load.js'
import type {ProjectTrustPort, TrustRecord} from '../core/config/trust.js'
import type {LoadConfigOptions, LoadedConfig} from '../core/config/types.js'
import {UserError} from '../core/errors.js'
import {resolvePaths} from '../core/paths.js'
import {cannotUse} from './credentials/fs-errors.js'
import type {LockFileOptions} from './credentials/lock-file.js'

/**
 * The user's trust decisions (src/core/config/trust.ts says what is trusted): one JSON file in
 * the data dir, `{"version": 1, "projects": {"<canonical root>": TrustRecord}}`, mode 0600,
 * replaced atomically under a lock file beside it (`trusted-projects.json.lock`), so concurrent
 * hanzo-dev processes never lose each other's entries. It lives outside every repository, and the
 * agent's file tools must never write it, its lock or its temp files (`.trusted-projects.json.*`):
 * whoever writes it decides what runs.
 */

/** Where the trust store is: `trustStorePath(resolvePaths(env, homedir).dataDir)`. */
export function trustStorePath(dataDir: string): string {
  return join(dataDir, 'trusted-projects.json')
}

const FORMAT_VERSION = 1
// A notice is a nicety: a command does not wait long for another process's lock to say it.
const NOTICE_LOCK: LockFileOptions = {timeoutMs: 2000}

export interface TrustedProject {
  root: string
  digest: string
  at: string
}

export class FileTrustStore implements ProjectTrustPort {
  constructor(
    readonly path: string,
    private readonly lock: LockFileOptions = {},
  ) {}

  /** The store of the user these variables describe. */
  static of(env: Readonly<Record<string, string | undefined>>, homedir: string): FileTrustStore {
    return new FileTrustStore(trustStorePath(resolvePaths(env, homedir).dataDir))
  }

  async lookup(projectRoot: string): Promise<TrustRecord> {
    return (await this.read()).get(await canonicalRoot(projectRoot)) ?? {}
  }

  async noteNoticed(projectRoot: string, digest: string): Promise<void> {
    const root = await canonicalRoot(projectRoot)
    // Not remembered (a read-only data dir, a busy lock): the warning is then shown again, no worse.
    await this.update((projects) => projects.set(root, {...projects.get(root), noticed: digest}), NOTICE_LOCK).catch(
      (error: unknown) => {
        if (!(error instanceof UserError)) throw error
      },
    )
  }

  async trust(projectRoot: string, digest: string, at = new Date()): Promise<void> {
    const root = await canonicalRoot(projectRoot)
    await this.update((projects) => projects.set(root, {trusted: {at: at.toISOString(), digest}}))
  }

  /** Forgets `projectRoot` (trust and notice); whether it was trusted. */
  async revoke(projectRoot: string): Promise<boolean> {
    const root = await canonicalRoot(projectRoot)
    let trusted = false
    await this.update((projects) => {
      trusted = projects.get(root)?.trusted !== undefined
      projects.delete(root)
    })
    return trusted
  }

  async list(): Promise<TrustedProject[]> {
    const projects = [...(await this.read())].flatMap(([root, {trusted}]) => (trusted ? [{root, ...trusted}] : []))
    return projects.sort((a, b) => (a.root < b.root ? -1 : 1))
  }

  private async update(change: (projects: Map<string, TrustRecord>) => void, lock = this.lock): Promise<void> {
    // Every command reads the store; only `trust` and a first warning write it: the writing
    // half loads then, not at every start-up.
    const [{withLockFile}, {writeFileAtomic}] = await Promise.all([
      import('./credentials/lock-file.js'),
      import('./atomic-write.js'),
    ])
    await mkdir(dirname(this.path), {mode: 0o700, recursive: true}).catch((error: unknown) => {
      throw cannotUse(dirname(this.path), error)
    })
    await withLockFile(
      `${this.path}.lock`,
      async () => {
        const projects = await this.read()
        change(projects)
        const sorted = Object.fromEntries([...projects].sort(([a], [b]) => (a < b ? -1 : 1)))
        const text = `${JSON.stringify({projects: sorted, version: FORMAT_VERSION}, null, 2)}\n`
        await writeFileAtomic(this.path, text, {forceMode: true, mode: 0o600}).catch((error: unknown) => {
          throw cannotUse(this.path, error)
        })
      },
      lock,
    )
  }

  private async read(): Promise<Map<string, TrustRecord>> {
    let handle
    try {
      // No link is followed: a store that points elsewhere could be anyone's.
      handle = await open(this.path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT') return new Map()
      if (code === 'ELOOP')
        throw new UserError(`Refusing to use ${this.path}: it is a symbolic link`, {
          hint: `replace it with a regular file`,
        })
      throw cannotUse(this.path, error)
    }

    try {
      if (!(await handle.stat()).isFile())
        throw new UserError(`Refusing to use ${this.path}: it is not a regular file`, {hint: `remove it`})
      return parseTrustFile(await handle.readFile('utf8'), this.path)
    } finally {
      await handle.close()
    }
  }
}

export function parseTrustFile(text: string, path: string): Map<string, TrustRecord> {
  const malformed = (why: string) =>
    new UserError(`Cannot read ${path}: ${why}`, {
      hint: 'fix the file, or remove it (every project then needs `hanzo-dev trust` again)',
    })
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw malformed('it is not valid JSON')
  }

  const {projects, version} = (typeof value === 'object' && value !== null ? value : {}) as {
    version?: unknown
    projects?: unknown
  }
  if (typeof version === 'number' && version > FORMAT_VERSION) {
    throw new UserError(`Cannot read ${path}: it was written by a newer hanzo-dev (format version ${version})`, {
      hint: 'upgrade hanzo-dev',
    })
  }

  if (version !== FORMAT_VERSION || typeof projects !== 'object' || projects === null || Array.isArray(projects)) {
    throw malformed(`it must be {"version": ${FORMAT_VERSION}, "projects": {...}}`)
  }

  const records = new Map<string, TrustRecord>()
  for (const [root, entry] of Object.entries(projects as Record<string, unknown>)) {
    const {noticed, trusted} = (typeof entry === 'object' && entry !== null ? entry : {}) as {
      noticed?: unknown
      trusted?: {digest?: unknown; at?: unknown}
    }
    const record: TrustRecord = {}
    if (typeof trusted?.digest === 'string' && typeof trusted.at === 'string')
      record.trusted = {at: trusted.at, digest: trusted.digest}
    if (typeof noticed === 'string') record.noticed = noticed
    records.set(root, record)
  }

  return records
}

/** A project root as the store keys it: symbolic links resolved, so one project is one entry. */
export async function canonicalRoot(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path))
}

/**
 * Runs the user's own edit of a settings file (`config set` / `unset`) without costing the
 * project its trust: when the settings were trusted (or needed none) before, the edited ones
 * are trusted as they now are, since the only change is the user's. Settings that were not
 * trusted stay so. A file that cannot be loaded before or after changes no trust.
 */
export async function keepingTrust<T>(options: Omit<LoadConfigOptions, 'trust'>, edit: () => Promise<T>): Promise<T> {
  const store = FileTrustStore.of(options.env, options.homedir)
  const before = await loadIfValid(options)
  const record = before?.trust.digest === undefined ? undefined : await store.lookup(before.projectRoot)
  const wasTrusted =
    before !== undefined && (before.trust.digest === undefined || record?.trusted?.digest === before.trust.digest)
  const result = await edit()
  if (!wasTrusted) return result
  const after = await loadIfValid(options)
  if (after?.trust.digest !== undefined && after.trust.digest !== before.trust.digest)
    await store.trust(after.projectRoot, after.trust.digest)
  return result
}

/** The settings, all of them applied; `undefined` when a settings file is malformed or invalid. */
export async function loadIfValid(options: LoadConfigOptions): Promise<LoadedConfig | undefined> {
  try {
    return await loadConfig(options)
  } catch (error) {
    if (error instanceof ConfigError) return undefined
    throw error
  }
}
