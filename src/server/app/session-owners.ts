import {mkdir, readFile} from 'node:fs/promises'
import {dirname} from 'node:path'

import {writeFileAtomic} from '../../adapters/atomic-write.js'

/**
 * Which owner (the bridge's `Hanzo-Owner`) each session belongs to, kept beside the saved
 * sessions (`<dataDir>/app-server/owners.json`, 0600) so a web user can resume their sessions
 * after the server restarts. A session started without an owner (stdio, local HTTP) has none.
 */
export class SessionOwners {
  private writes = Promise.resolve()

  private constructor(
    private readonly path: string,
    private readonly owners: Map<string, string>,
    private readonly warn: (message: string) => void,
  ) {}

  static async load(path: string, warn: (message: string) => void): Promise<SessionOwners> {
    return new SessionOwners(path, new Map(Object.entries(await read(path, warn))), warn)
  }

  get(sessionId: string): string | undefined {
    return this.owners.get(sessionId)
  }

  /** Tags a session; written before this resolves (merged with what other servers wrote meanwhile). */
  set(sessionId: string, owner: string): Promise<void> {
    this.owners.set(sessionId, owner)
    this.writes = this.writes
      .then(async () => {
        const merged = {...(await read(this.path, this.warn)), ...Object.fromEntries(this.owners)}
        await mkdir(dirname(this.path), {mode: 0o700, recursive: true})
        await writeFileAtomic(this.path, `${JSON.stringify(merged, null, 2)}\n`, {forceMode: true, mode: 0o600})
      })
      .catch((error: unknown) =>
        this.warn(
          `could not save the session owners to ${this.path}: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
    return this.writes
  }
}

async function read(path: string, warn: (message: string) => void): Promise<Record<string, string>> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') warn(`cannot read ${path}: ${error.message}`)
    return '{}'
  })
  try {
    const parsed = JSON.parse(text) as unknown
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return Object.fromEntries(
        Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      )
    }
  } catch {
    // Reported below, as a file of the wrong shape is.
  }

  warn(`${path} is not a JSON object of session ids and owners: sessions saved before have no owner now`)
  return {}
}
