import type {Host} from '@hanzo-dev/sdk'

import type {ClientRequests} from './client-requests.js'
import {covers, loginKey} from './oauth-login.js'
import type {McpServerEntry} from './server-config.js'
import {McpServers} from './servers.js'
import {ToolPins} from './tool-pins.js'

export interface SessionServersOptions {
  cwd: string
  dataDir: string
  env: Readonly<Record<string, string | undefined>>
  /** The merged settings: where the credential store is (an HTTP server's `mcp login` token). */
  settings: Record<string, unknown>
  library: Pick<Host, 'createBackoff' | 'normalizeMcpToolName' | 'writeFileAtomic' | 'resourceAccessToken'>
  warn: (message: string) => void
  clientRequests?: ClientRequests
}

/** Reconnects after a crash wait up to 0.5 s, 1 s, 2 s, ... at most 30 s. */
const RECONNECT = {baseMs: 500, maxMs: 30_000}

/** A token read this recently is sent again without asking the store (a burst of calls reads it once). */
const TOKEN_REUSE_MS = 30_000

/** The servers of one session or command, with the core's name rules, backoff and atomic writes. */
export async function openSessionServers(
  servers: readonly McpServerEntry[],
  options: SessionServersOptions,
): Promise<McpServers> {
  const {library} = options
  const pins = await ToolPins.open(options.dataDir, (path, data, mode) => library.writeFileAtomic(path, data, mode))
  return new McpServers(servers, {
    bearer: (server) => storedToken(server, options),
    clientRequests: options.clientRequests,
    cwd: options.cwd,
    dataDir: options.dataDir,
    env: options.env,
    naming: library,
    newBackoff: () => library.createBackoff(RECONNECT),
    pins,
    warn: options.warn,
  })
}

/** The `mcp login` token of an HTTP server, renewed by the host when it has expired. */
function storedToken(
  server: McpServerEntry,
  options: SessionServersOptions,
): (() => Promise<string | undefined>) | undefined {
  const {library} = options
  if (server.transport.type !== 'http') return undefined
  const {url} = server.transport
  const login = {
    clientSecret: server.oauth?.clientSecret,
    env: options.env,
    key: loginKey(server.name),
    settings: options.settings,
  }
  // A token issued for another resource (the server's URL changed since the login) is never sent.
  const read = async () => {
    const stored = await library.resourceAccessToken(login).catch(() => undefined)
    return stored?.resource && covers(stored.resource, url) ? stored.accessToken : undefined
  }
  let last: {at: number; token: Promise<string | undefined>} | undefined
  return () => {
    if (!last || Date.now() - last.at > TOKEN_REUSE_MS) last = {at: Date.now(), token: read()}
    return last.token
  }
}
