import type {Credential, CredentialStore, CredentialSummary, LockedCredentials} from '../../core/auth/credentials.js'
import {UserError} from '../../core/errors.js'
import {FileCredentialStore} from './file-store.js'
import {KeychainCredentialStore, type KeyringModule, loadKeyring, reasonOf} from './keychain-store.js'
import type {LockFileOptions} from './lock-file.js'

export type CredentialBackend = 'file' | 'keychain'

export interface OpenCredentialStoreOptions {
  /** `credentials.json`: `resolvePaths(env, homedir).credentials`. Its `.lock` serves both backends. */
  path: string
  /** `HANZO_CREDENTIALS_STORE` is read from here and wins over `setting`, as the env tier wins over settings. */
  env: Readonly<Record<string, string | undefined>>
  platform: NodeJS.Platform
  /** `credentials.store` from the user settings. */
  setting?: CredentialBackend
  onWarning: (message: string) => void
  /** Tests hand in a keyring in memory; the default imports `@napi-rs/keyring`. */
  loadKeyring?: () => Promise<KeyringModule>
  lock?: LockFileOptions
}

export interface OpenedCredentialStore {
  store: CredentialStore
  /** Where new credentials go; credentials kept in the file before still count with either. */
  backend: CredentialBackend
}

/** Where a keychain comes with the system: there it is the default backend. */
const SYSTEM_KEYCHAINS: Partial<Record<NodeJS.Platform, string>> = {
  darwin: 'macOS Keychain',
  win32: 'Windows Credential Manager',
}

/**
 * The credential store the settings ask for (HIP-301 §12). The OS keychain is the default on
 * macOS and Windows. Elsewhere it is used only when `credentials.store` (or
 * `HANZO_CREDENTIALS_STORE`) is `keychain` and a write/read/delete round-trip passes now: a
 * Secret Service runs only inside a desktop session, and a server or a container has none.
 * `file` means the file everywhere. A keychain that cannot be loaded or fails its probe leaves
 * the file backend and one warning naming the keychain and the file.
 */
export async function openCredentialStore(options: OpenCredentialStoreOptions): Promise<OpenedCredentialStore> {
  const {onWarning, path, platform} = options
  const file = new FileCredentialStore({lock: options.lock, onWarning, path})
  const systemKeychain = SYSTEM_KEYCHAINS[platform]
  const choice = backendFromEnv(options.env) ?? options.setting ?? (systemKeychain ? 'keychain' : 'file')
  if (choice === 'file') return {backend: 'file', store: file}
  const name = systemKeychain ?? 'Secret Service keyring'
  try {
    const keyring = await (options.loadKeyring ?? loadKeyring)()
    const keychain = new KeychainCredentialStore({keyring, lock: options.lock, lockPath: `${path}.lock`, name})
    if (!systemKeychain) await keychain.probe()
    return {backend: 'keychain', store: new KeychainWithFileFallback(keychain, file, onWarning)}
  } catch (error) {
    onWarning(`${describe(error, name)}; credentials go to ${path}`)
    return {backend: 'file', store: file}
  }
}

function backendFromEnv(env: Readonly<Record<string, string | undefined>>): CredentialBackend | undefined {
  const value = env.HANZO_CREDENTIALS_STORE
  if (value === undefined || value === '') return undefined
  if (value === 'file' || value === 'keychain') return value
  throw new UserError(`HANZO_CREDENTIALS_STORE must be "file" or "keychain", not ${JSON.stringify(value)}`, {
    hint: 'fix or unset the variable',
  })
}

/**
 * The keychain backend as the user gets it: the keychain, with the file behind it. A keychain that
 * fails later (locked, its daemon gone) never makes a login read as logged out or get lost: a read
 * then looks in the file, with a warning, and a write goes there, with a warning. A read the
 * keychain answers with nothing looks in the file silently: logins kept there before the keychain
 * was chosen, or while it failed, still count.
 */
class KeychainWithFileFallback implements CredentialStore {
  private readonly warned = new Set<string>()

  constructor(
    private readonly keychain: KeychainCredentialStore,
    private readonly file: FileCredentialStore,
    private readonly onWarning: (message: string) => void,
  ) {}

  async get(provider: string): Promise<Credential | undefined> {
    const credential = await this.keychain.get(provider).catch((error: unknown) => {
      this.warn(`${describe(error, this.keychain.name)}; reading ${this.file.path} instead`)
      return undefined
    })
    return credential ?? this.file.get(provider)
  }

  /** Both backends; a provider in both is the keychain's, which is where its newest login went. */
  async list(): Promise<CredentialSummary[]> {
    const inKeychain = await this.keychain.list().catch((error: unknown) => {
      this.warn(`${describe(error, this.keychain.name)}; listing ${this.file.path} only`)
      return []
    })
    const byProvider = new Map((await this.file.list()).map((summary) => [summary.provider, summary]))
    for (const summary of inKeychain) byProvider.set(summary.provider, summary)
    return [...byProvider.values()].sort((a, b) => (a.provider < b.provider ? -1 : 1))
  }

  store(provider: string, credential: Credential): Promise<void> {
    return this.withLock((locked) => locked.store(provider, credential))
  }

  delete(provider: string): Promise<boolean> {
    return this.withLock((locked) => locked.delete(provider))
  }

  /** The file store's lock is the keychain's too (`credentials.json.lock`): taken once, for both. */
  withLock<T>(fn: (locked: LockedCredentials) => Promise<T>): Promise<T> {
    return this.file.withLock((file) => fn(this.lockedView(file)))
  }

  private lockedView(file: LockedCredentials): LockedCredentials {
    return {
      /** From both; a keychain that fails to delete is an error: the secret is still there. */
      delete: async (provider) => {
        const fromFile = await file.delete(provider)
        const fromKeychain = await this.keychain.locked.delete(provider)
        return fromFile || fromKeychain
      },
      get: (provider) => this.get(provider),
      store: async (provider, credential) => {
        try {
          await this.keychain.locked.store(provider, credential)
        } catch (error) {
          this.warn(`${describe(error, this.keychain.name)}; credentials go to ${this.file.path}`)
          await file.store(provider, credential)
          return
        }

        // A copy an earlier fallback left in the file would come back, with a refresh token rotated
        // since, the next time the keychain fails.
        await file.delete(provider)
      },
    }
  }

  /** Once per message: a failing keychain fails every call, and one line says it. */
  private warn(message: string): void {
    if (this.warned.has(message)) return
    this.warned.add(message)
    this.onWarning(message)
  }
}

/** A keychain failure as the start of one line; the store's own errors already name the keychain. */
function describe(error: unknown, name: string): string {
  if (error instanceof UserError) return error.message
  return `Cannot use the ${name} (${reasonOf(error)})`
}
