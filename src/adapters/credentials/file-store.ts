import {constants} from 'node:fs'
import {type FileHandle, lstat, mkdir, open, readdir, rm} from 'node:fs/promises'
import {basename, dirname, join} from 'node:path'

import {
  type Credential,
  type CredentialStore,
  type CredentialSummary,
  type LockedCredentials,
  parseCredential,
  summarizeCredential,
} from '../../core/auth/credentials.js'
import {UserError} from '../../core/errors.js'
import {writeFileAtomic} from '../atomic-write.js'
import {cannotUse} from './fs-errors.js'
import {type LockFileOptions, withLockFile} from './lock-file.js'

export interface FileCredentialStoreOptions {
  /** `credentials.json` in the config dir: `resolvePaths(env, homedir).credentials`. */
  path: string
  /** Told when the store repairs something it found, e.g. a file others could read. */
  onWarning?: (message: string) => void
  lock?: LockFileOptions
}

const FORMAT_VERSION = 1

/**
 * Credentials in `{"version": 1, "providers": {"<name>": Credential}}`, mode 0600 in a 0700
 * directory (HIP-301 §12), replaced atomically under a lock file beside it
 * (`credentials.json.lock`) so concurrent hanzo-dev processes never lose each other's writes.
 *
 * A symbolic link at the file or at its directory is refused, never followed: it could lead the
 * secrets to a place other users can read. Messages name the file but never quote it.
 */
export class FileCredentialStore implements CredentialStore {
  readonly path: string
  private readonly onWarning: (message: string) => void
  private readonly lockOptions: LockFileOptions
  private readonly locked: LockedCredentials = {
    delete: async (provider) => {
      const providers = await this.read()
      if (!providers.delete(provider)) return false
      await this.write(providers)
      return true
    },
    get: (provider) => this.get(provider),
    store: async (provider, credential) => {
      await this.write((await this.read()).set(provider, credential))
    },
  }

  constructor(options: FileCredentialStoreOptions) {
    this.path = options.path
    this.onWarning = options.onWarning ?? (() => {})
    this.lockOptions = options.lock ?? {}
  }

  async get(provider: string): Promise<Credential | undefined> {
    return (await this.read()).get(provider)
  }

  async list(): Promise<CredentialSummary[]> {
    return [...(await this.read())]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([provider, credential]) => summarizeCredential(provider, credential))
  }

  store(provider: string, credential: Credential): Promise<void> {
    return this.withLock((locked) => locked.store(provider, credential))
  }

  delete(provider: string): Promise<boolean> {
    return this.withLock((locked) => locked.delete(provider))
  }

  async withLock<T>(fn: (locked: LockedCredentials) => Promise<T>): Promise<T> {
    if (await this.checkDirectory()) {
      await this.tightenDirectory()
    } else {
      const dir = dirname(this.path)
      await mkdir(dir, {mode: 0o700, recursive: true}).catch((error: unknown) => {
        throw cannotUse(dir, error)
      })
      // Checked again: a link planted meanwhile would make mkdir succeed without creating anything.
      await this.checkDirectory()
    }

    return withLockFile(`${this.path}.lock`, () => fn(this.locked), this.lockOptions)
  }

  private async read(): Promise<Map<string, Credential>> {
    if (!(await this.checkDirectory())) return new Map()
    const handle = await this.open()
    if (handle === undefined) return new Map()
    try {
      const info = await handle.stat()
      if (!info.isFile())
        throw new UserError(`Refusing to read ${this.path}: it is not a regular file`, {
          hint: `move it away and log in again`,
        })
      const mode = info.mode & 0o777
      if (process.platform !== 'win32' && (mode & ~0o600) !== 0) {
        // Through the open handle: the file checked is the file repaired.
        await handle.chmod(0o600)
        this.onWarning(
          `${this.path} was open to other users (mode ${mode.toString(8).padStart(4, '0')}); it is now 0600`,
        )
      }

      return parseCredentialsFile(await handle.readFile('utf8'), this.path)
    } finally {
      await handle.close()
    }
  }

  private async open(): Promise<FileHandle | undefined> {
    try {
      // O_NONBLOCK: a FIFO planted at the path must not hang the open.
      return await open(this.path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT') return undefined
      if (code === 'ELOOP') throw symlinkRefused(this.path)
      throw cannotUse(this.path, error)
    }
  }

  /** Whether the directory exists; a link or a non-directory in its place is refused. */
  private async checkDirectory(): Promise<boolean> {
    const dir = dirname(this.path)
    const info = await lstat(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined
      throw cannotUse(dir, error)
    })
    if (info?.isSymbolicLink()) throw symlinkRefused(dir)
    if (info && !info.isDirectory())
      throw new UserError(`Refusing to use ${dir}: it is not a directory`, {hint: `move it away`})
    return info !== undefined
  }

  /**
   * In a config directory others may write to, they can replace the credentials file or hold its
   * lock; in one they may read, they see what is there. Before the store writes into it, it
   * becomes 0700 (HIP-301 §12); a read that finds nothing changes nothing.
   */
  private async tightenDirectory(): Promise<void> {
    if (process.platform === 'win32') return
    const dir = dirname(this.path)
    // Through a handle opened without following links: the directory checked is the one changed.
    const handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW).catch(
      (error: NodeJS.ErrnoException) => {
        throw error.code === 'ELOOP' ? symlinkRefused(dir) : cannotUse(dir, error)
      },
    )
    try {
      const mode = (await handle.stat()).mode & 0o777
      if ((mode & 0o077) === 0) return
      await handle.chmod(0o700)
      this.onWarning(`${dir} was open to other users (mode ${mode.toString(8).padStart(4, '0')}); it is now 0700`)
    } catch (error) {
      throw cannotUse(dir, error)
    } finally {
      await handle.close()
    }
  }

  /**
   * A writer killed mid-write leaves its temp file behind: private, but a copy of every secret.
   * Writes happen under the lock, so no other writer of this file is running: each one is stale.
   */
  private async removeLeftTempFiles(): Promise<void> {
    const prefix = `.${basename(this.path)}.`
    const names = await readdir(dirname(this.path))
    const left = names.filter((name) => name.startsWith(prefix) && name.endsWith('.tmp'))
    await Promise.all(left.map((name) => rm(join(dirname(this.path), name), {force: true})))
  }

  private async write(providers: Map<string, Credential>): Promise<void> {
    const sorted = Object.fromEntries([...providers].sort(([a], [b]) => (a < b ? -1 : 1)))
    const text = `${JSON.stringify({providers: sorted, version: FORMAT_VERSION}, null, 2)}\n`
    try {
      await this.removeLeftTempFiles()
      await writeFileAtomic(this.path, text, {forceMode: true, mode: 0o600})
    } catch (error) {
      throw cannotUse(this.path, error)
    }
  }
}

/** The providers of a credentials file; the errors name the file and the field, never a value. */
export function parseCredentialsFile(text: string, path: string): Map<string, Credential> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    // JSON.parse's message quotes the text around the error, which may be a token.
    throw malformed(path, 'it is not valid JSON')
  }

  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw malformed(path, 'it is not a JSON object')
  const {providers, version} = value as {version?: unknown; providers?: unknown}
  if (typeof version === 'number' && version > FORMAT_VERSION) {
    throw new UserError(`Cannot read ${path}: it was written by a newer hanzo-dev (format version ${version})`, {
      hint: 'upgrade hanzo-dev',
    })
  }

  if (version !== FORMAT_VERSION) throw malformed(path, `"version" must be ${FORMAT_VERSION}`)
  if (typeof providers !== 'object' || providers === null || Array.isArray(providers))
    throw malformed(path, '"providers" must be an object')
  const result = new Map<string, Credential>()
  for (const [provider, entry] of Object.entries(providers)) {
    const credential = parseCredential(entry)
    if (typeof credential === 'string') throw malformed(path, `provider ${JSON.stringify(provider)}: ${credential}`)
    result.set(provider, credential)
  }

  return result
}

function malformed(path: string, why: string): UserError {
  return new UserError(`Cannot read ${path}: ${why}`, {hint: `fix the file, or remove it and log in again`})
}

function symlinkRefused(path: string): UserError {
  return new UserError(`Refusing to use ${path}: it is a symbolic link`, {
    hint: 'credentials are never read or written through a link; replace it with a regular file or directory',
  })
}
