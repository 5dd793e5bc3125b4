import {pathToFileURL} from 'node:url'

import {LspClient} from './lsp-client.js'
import type {FoundServer} from './server-lookup.js'

/**
 * How long a server may take to answer `initialize` when `lsp servers` checks it: long enough
 * for a Node server on a busy machine, short enough that a hung one does not hold the list up.
 */
export const PROBE_TIMEOUT_MS = 10_000

/**
 * Why `found` does not start as a session would start it (spawned in `root`, the `initialize`
 * handshake answered, then shut down), or undefined when it does. Being on PATH proves little:
 * typescript-language-server with a TypeScript that has no tsserver is there and fails every request.
 */
export async function startFailure(
  found: FoundServer,
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<string | undefined> {
  const client = new LspClient(found.path, pathToFileURL(root).href, {
    args: found.server.args,
    env,
    graceMs: 500,
    initializeTimeoutMs: timeoutMs,
  })
  try {
    await client.start()
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  } finally {
    await client.shutdown()
  }
}
