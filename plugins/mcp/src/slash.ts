import type {SlashCommandDefinition} from '@hanzo-dev/sdk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import type {McpServers, ServerStatus} from './servers.js'

/**
 * `/mcp` at the interactive prompt: the session's MCP servers as they are now (connected with
 * their tool count, connecting, failed with why). It reads the servers the session started; it
 * never starts or reconnects one.
 */
export function mcpSlashCommands(servers?: McpServers): SlashCommandDefinition[] {
  return [
    {
      description: 'The MCP servers of this session: state, tools, why one failed, what they logged',
      name: 'mcp',
      async run() {
        const status = servers?.status() ?? []
        if (status.length === 0) return {message: 'No MCP servers in this session (hanzo-dev mcp add adds one).'}
        const pings = await servers!.pings(AbortSignal.timeout(PING_TIMEOUT_MS))
        const width = Math.max(...status.map((s) => s.name.length))
        const lines = status.map((s) => {
          const what =
            s.state === 'connected' ? `connected, ${s.tools ?? 0} tool(s), ${pingText(pings.get(s.name))}` : s.state
          const why = s.error ? `: ${s.error}${s.hint ? ` (${s.hint})` : ''}` : ''
          const line = `  ${s.name.padEnd(width)}  ${s.transport}${s.http ? ` (${s.http})` : ''}  ${what}${why}`
          return [line, ...logLines(s)].join('\n')
        })
        return {message: [`MCP servers (${status.length}):`, ...lines].join('\n')}
      },
    },
  ]
}

/** A server that does not answer `ping` within this long is reported so; /mcp must not hang on it. */
const PING_TIMEOUT_MS = 5000

/** A `ping` round trip as /mcp and `mcp get` show it; a string is why there was none. */
export function pingText(ping: number | string | undefined): string {
  if (ping === undefined) return 'not pinged'
  return typeof ping === 'number' ? `ping ${ping} ms` : `ping failed: ${oneLine(ping)}`
}

/** What a server logged: the counts by level, then its last messages, each on one line. */
function logLines({log}: ServerStatus): string[] {
  if (!log) return []
  const counts = Object.entries(log.counts).map(([level, n]) => `${n} ${level}`)
  return [`      log: ${counts.join(', ')}`, ...log.last.map((line) => `        ${oneLine(line)}`)]
}

/** `mcp: 2/3` (connected of all), and how many failed: the status line's item; /mcp says why. */
export function statusItem(servers: readonly ServerStatus[]): string {
  const connected = servers.filter((s) => s.state === 'connected').length
  const failed = servers.filter((s) => s.state === 'failed').length
  return `mcp: ${connected}/${servers.length}${failed > 0 ? ` (${failed} failed: /mcp)` : ''}`
}
