import {mkdir} from 'node:fs/promises'
import {dirname} from 'node:path'

import {
  type Credential,
  type CredentialStore,
  type CredentialSummary,
  type LockedCredentials,
  parseCredential,
  summarizeCredential,
} from '../../core/auth/credentials.js'
import {UserError} from '../../core/errors.js'
import {cannotUse} from './fs-errors.js'
import {type LockFileOptions, withLockFile} from './lock-file.js'

/** One keychain item; the methods reject when the keychain cannot be reached or is locked. */
export interface KeyringEntry {
  /** `null` when there is no such item. */
  getPassword(): Promise<string | null>
  setPassword(password: string): Promise<void>
  /** Whether there was an item to delete. */
  deletePassword(): Promise<boolean>
}

/** The part of `@napi-rs/keyring` the store uses: a port, so tests can hand in a keyring in memory. */
export interface KeyringModule {
  entry(service: string, account: string): KeyringEntry
  /** Every item of `service`, secrets included. */
  findCredentials(service: string): Promise<Array<{account: string; password: string}>>
}

/**
 * The OS keychain through `@napi-rs/keyring`, imported only now: it is a native optional
 * dependency, which may be missing, and which the file backend never needs.
 *
 * On Linux the items are pinned to the Secret Service (GNOME Keyring, KWallet). The module would
 * otherwise fall back to the kernel keyring, which forgets its keys at logout or after days unused:
 * a login would vanish without a word, where the file backend keeps it.
 */
export async function loadKeyring(): Promise<KeyringModule> {
  const {AsyncEntry, findCredentialsAsync} = await import('@napi-rs/keyring')
  const options = {linux: {store: 'secret-service'}} as const
  return {
    entry: (service, account) => new AsyncEntry(service, account, options),
    findCredentials: (service) => findCredentialsAsync(service),
  }
}

export interface KeychainCredentialStoreOptions {
  keyring: KeyringModule
  /**
   * The lock file the file backend takes too (`credentials.json.lock`): a refresh in one process
   * and a login in another exclude each other whichever backend each of them uses.
   */
  lockPath: string
  /** What messages call the keychain, e.g. "macOS Keychain". */
  name?: string
  lock?: LockFileOptions
}

/** The keychain service every item is filed under; the account is the provider's name. */
export const KEYCHAIN_SERVICE = 'hanzo-dev'
/** The account {@link KeychainCredentialStore.probe} writes and removes; never a provider. */
export const PROBE_ACCOUNT = '__probe__'

/**
 * Credentials in the OS keychain (HIP-301 §12): one item per provider, service "hanzo-dev",
 * account = the provider's name, secret = the credential as JSON. Messages name the provider and
 * the keychain, never a value: the value is a secret.
 */
export class KeychainCredentialStore implements CredentialStore {
  readonly name: string
  /** The reads and writes without taking the lock: for a caller that already holds `lockPath`. */
  readonly locked: LockedCredentials
  private readonly keyring: KeyringModule
  private readonly lockPath: string
  private readonly lockOptions: LockFileOptions

  constructor(options: KeychainCredentialStoreOptions) {
    this.keyring = options.keyring
    this.lockPath = options.lockPath
    this.name = options.name ?? 'OS keychain'
    this.lockOptions = options.lock ?? {}
    this.locked = {
      delete: (provider) => this.call(`delete ${provider} from`, () => this.entry(provider).deletePassword()),
      get: (provider) => this.get(provider),
      store: (provider, credential) =>
        this.call(`write ${provider} to`, () => this.entry(provider).setPassword(JSON.stringify(credential))),
    }
  }

  async get(provider: string): Promise<Credential | undefined> {
    const password = await this.call(`read ${provider} from`, () => this.entry(provider).getPassword())
    return password === null ? undefined : this.parse(provider, password)
  }

  async list(): Promise<CredentialSummary[]> {
    const items = await this.call('list the credentials in', () => this.keyring.findCredentials(KEYCHAIN_SERVICE))
    return items
      .filter(({account}) => account !== PROBE_ACCOUNT)
      .sort((a, b) => (a.account < b.account ? -1 : 1))
      .map(({account, password}) => summarizeCredential(account, this.parse(account, password)))
  }

  store(provider: string, credential: Credential): Promise<void> {
    return this.withLock((locked) => locked.store(provider, credential))
  }

  delete(provider: string): Promise<boolean> {
    return this.withLock((locked) => locked.delete(provider))
  }

  async withLock<T>(fn: (locked: LockedCredentials) => Promise<T>): Promise<T> {
    const dir = dirname(this.lockPath)
    await mkdir(dir, {mode: 0o700, recursive: true}).catch((error: unknown) => {
      throw cannotUse(dir, error)
    })
    return withLockFile(this.lockPath, () => fn(this.locked), this.lockOptions)
  }

  /**
   * Writes, reads back and removes a throwaway item: where no keychain is running (a server, a
   * container) the failure shows here, at start, rather than at the first login.
   */
  async probe(): Promise<void> {
    const value = `probe-${Date.now()}-${Math.random().toString(36).slice(2)}`
    // Created inside each call: where no keychain answers, creating an entry throws already.
    const entry = () => this.keyring.entry(KEYCHAIN_SERVICE, PROBE_ACCOUNT)
    await this.call('write to', () => entry().setPassword(value))
    const read = await this.call('read from', () => entry().getPassword()).catch(async (error: unknown) => {
      await this.call('delete from', () => entry().deletePassword()).catch(() => false)
      throw error
    })
    const deleted = await this.call('delete from', () => entry().deletePassword())
    if (read !== value || !deleted)
      throw new UserError(`The ${this.name} did not keep what was written to it`, {hint: HINT})
  }

  private entry(provider: string): KeyringEntry {
    if (provider === PROBE_ACCOUNT) throw new UserError(`"${PROBE_ACCOUNT}" is not a provider name`)
    return this.keyring.entry(KEYCHAIN_SERVICE, provider)
  }

  /** Runs a keychain operation; its failure becomes one line naming the keychain and the reason. */
  private async call<T>(action: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation()
    } catch (error) {
      if (error instanceof UserError) throw error
      throw new UserError(`Cannot ${action} the ${this.name} (${reasonOf(error)})`, {cause: error, hint: HINT})
    }
  }

  private parse(provider: string, password: string): Credential {
    let value: unknown
    try {
      value = JSON.parse(password)
    } catch {
      // JSON.parse's message quotes the text around the error, which may be a token.
      throw this.malformed(provider, 'it is not valid JSON')
    }

    const credential = parseCredential(value)
    if (typeof credential === 'string') throw this.malformed(provider, credential)
    return credential
  }

  private malformed(provider: string, why: string): UserError {
    return new UserError(`Cannot read the credential of ${provider} in the ${this.name}: ${why}`, {
      hint: `log in to ${provider} again to replace it, or remove the item "${KEYCHAIN_SERVICE}" / "${provider}" from the keychain`,
    })
  }
}

const HINT =
  'unlock the keychain, or set "credentials": {"store": "file"} in your user settings (or HANZO_CREDENTIALS_STORE=file)'

/** The first line of a native error: the platform's reason, without the stack. */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n', 1)[0].trim() || 'unknown error'
}
