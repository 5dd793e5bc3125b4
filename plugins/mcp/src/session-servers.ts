import type {HostLibrary} from '@hanzo-dev/sdk'

import type {McpServerEntry} from './server-config.js'
import {McpServers} from './servers.js'
import {ToolPins} from './tool-pins.js'

export interface SessionServersOptions {
  cwd: string
  dataDir: string
  env: Readonly<Record<string, string | undefined>>
  library: Pick<HostLibrary, 'Backoff' | 'normalizeMcpToolName' | 'writeFileAtomic'>
  warn: (message: string) => void
}

/** Reconnects after a crash wait up to 0.5 s, 1 s, 2 s, ... at most 30 s. */
const RECONNECT = {baseMs: 500, maxMs: 30_000}

/** The servers of one session or command, with the core's name rules, backoff and atomic writes. */
export async function openSessionServers(servers: readonly McpServerEntry[], options: SessionServersOptions): Promise<McpServers> {
  const {library} = options
  const pins = await ToolPins.open(options.dataDir, (path, data, mode) => library.writeFileAtomic(path, data, mode))
  return new McpServers(servers, {
    cwd: options.cwd,
    dataDir: options.dataDir,
    env: options.env,
    naming: library,
    newBackoff: () => new library.Backoff(RECONNECT),
    pins,
    warn: options.warn,
  })
}
