import type {KeyringEntry, KeyringModule} from '../../../src/adapters/credentials/keychain-store.js'

export type KeyringOperation = 'delete' | 'entry' | 'find' | 'get' | 'set'

/**
 * A keychain in memory behind the store's port. `failing` makes operations reject the way the
 * native module does when no keychain answers; `calls` records what reached the keychain.
 */
export class MemoryKeyring implements KeyringModule {
  readonly items = new Map<string, string>()
  readonly calls: string[] = []
  failing = new Set<KeyringOperation>()

  entry(service: string, account: string): KeyringEntry {
    const key = `${service}/${account}`
    // The native module throws already here where no keychain answers (Linux without a session bus).
    this.check('entry', key)
    return {
      deletePassword: async () => {
        this.check('delete', key)
        return this.items.delete(key)
      },
      getPassword: async () => {
        this.check('get', key)
        return this.items.get(key) ?? null
      },
      setPassword: async (password) => {
        this.check('set', key)
        this.items.set(key, password)
      },
    }
  }

  async findCredentials(service: string): Promise<Array<{account: string; password: string}>> {
    this.check('find', service)
    const prefix = `${service}/`
    return [...this.items]
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, password]) => ({account: key.slice(prefix.length), password}))
  }

  private check(operation: KeyringOperation, key: string): void {
    if (operation !== 'entry') this.calls.push(`${operation} ${key}`)
    if (this.failing.has(operation))
      throw new Error("Couldn't access platform storage: AccessDenied\n    at native code")
  }
}
