import {defineContributeHook, PLUGIN_API_VERSION, printable} from '@hanzo-dev/sdk'

import {enabledServers} from '../server-config.js'
import {mcpSlashCommands, statusItem} from '../slash.js'
import {READ_RESOURCE_TOOL} from '../tool-result.js'

/**
 * How long the answer waits for the servers: those up by then are in the first request's
 * tools; a slower one joins through `watchTools` when it arrives, so it never holds a chat (a
 * one-shot run waits for every server through `ready`).
 */
export const MCP_STARTUP_WAIT_MS = 3000

/** The configured (and, for a project's, trusted) MCP servers' tools, in agent sessions. */
export default defineContributeHook(async (options) => {
  const {host} = options
  // `mcp serve` opens its session without them: what it serves must not start (or be) the servers it would proxy.
  if (host.mcpServers === false) return undefined
  const {problems, servers, warnings} = enabledServers(host.settings.mcp_servers, host.env)
  const notices = [...problems, ...warnings]
  // A session that offers no MCP tool (a commit message's) would start the servers for nothing.
  const offered = host.tools ?? 'all'
  if (
    offered === 'none' ||
    (Array.isArray(offered) && !offered.some((name) => name.startsWith('mcp__') || name === READ_RESOURCE_TOOL))
  )
    return {apiVersion: PLUGIN_API_VERSION, notices}
  if (servers.length === 0) return {apiVersion: PLUGIN_API_VERSION, notices, slashCommands: mcpSlashCommands()}
  const {openSessionServers} = await import('../session-servers.js')
  const {clientRequests} = await import('../client-requests.js')
  let answered = false
  // A server's own words are in these (its error, its name): on stderr through the printer; notices the host shows through it.
  const warn = (message: string) =>
    answered ? process.stderr.write(`Warning: ${printable(message)}\n`) : notices.push(message)
  const mcp = await openSessionServers(servers, {
    clientRequests: clientRequests(host, warn),
    cwd: host.projectRoot,
    dataDir: host.dataDir,
    env: host.env,
    library: options.hostApi,
    settings: host.settings,
    warn,
  })
  let timer: NodeJS.Timeout | undefined
  const started = mcp.start()
  await Promise.race([started, new Promise<void>((resolve) => (timer = setTimeout(resolve, MCP_STARTUP_WAIT_MS)))])
  clearTimeout(timer)
  const {promptCommands} = await import('../prompt-commands.js')
  // The prompts of the servers up by now; a server that starts later adds its own through watchSlashCommands.
  const commands = async () => [...mcpSlashCommands(mcp), ...(await promptCommands(mcp.connections, warn))]
  // Read before the answer's lists: a server up while they are made is sent again when watched.
  const seen = mcp.changes
  const slashCommands = await commands()
  answered = true
  return {
    apiVersion: PLUGIN_API_VERSION,
    completeMention: async (prefix) => {
      const {mentionCandidates} = await import('../mention-completion.js')
      return mentionCandidates(mcp.withResources(), prefix)
    },
    dispose: () => mcp.close(),
    notices,
    pendingContext: () => mcp.subscriptions.take(),
    slashCommands,
    status: () => statusItem(mcp.status()),
    tools: mcp.tools(),
    watchNotices: (notify) => mcp.subscriptions.onNotice(notify),
    watchSlashCommands: (update) => mcp.onChange(() => void commands().then(update), seen),
    ready: () => started,
    watchTools: (update) => mcp.onChange(update, seen),
  }
})
