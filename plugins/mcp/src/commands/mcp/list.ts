import {loadCommandHost, makePaint, redactUrl} from '@hanzo-dev/sdk'
import {Command} from '@oclif/core/command'

import {parseMcpServers, programOf} from '../../server-config.js'

export interface ListedServer {
  name: string
  enabled: boolean
  /** null when the entry is invalid (see `problem`). */
  transport: 'stdio' | 'http' | null
  /** stdio: the program started; its arguments and environment are never shown (tokens go there). */
  program?: string
  /** http: the URL's scheme, host and port; its user info, path, query and fragment redacted. */
  url?: string
  /** The settings tier the server's command or url came from, when the settings say so. */
  tier?: string
  problem?: string
}

export interface McpListResult {
  servers: ListedServer[]
}

export default class McpList extends Command {
  static enableJsonFlag = true

  static description = `List the configured MCP servers (settings.mcp_servers) without starting any.

Shows each server's transport: the program of a stdio server, the scheme and host of an http server's URL (its path and query may hold a token). Arguments, environment and headers are never shown, since they are where tokens go. A server with "disabled": true (in any tier) is listed as disabled.`

  static examples = ['<%= config.bin %> mcp list', '<%= config.bin %> mcp list --json | jq ".servers[] | select(.enabled)"']

  async run(): Promise<McpListResult> {
    const {flags} = await this.parse(McpList)
    const host = await loadCommandHost(this)
    const parsed = parseMcpServers(host.settings.mcp_servers)
    if (parsed.problem) this.error(`${parsed.problem} (hanzo-dev config list --show-origin shows which file sets it)`, {exit: 1})

    const servers = parsed.servers.map((entry): ListedServer => {
      const base = {enabled: !entry.disabled, name: entry.name, ...(entry.tier === undefined ? {} : {tier: entry.tier})}
      if ('problem' in entry) return {...base, problem: entry.problem, transport: null}
      const {transport} = entry.server
      return transport.type === 'http'
        ? {...base, transport: 'http', url: redactUrl(transport.url)}
        : {...base, program: programOf(transport.command), transport: 'stdio'}
    })

    if (!flags.json) this.log(render(servers))
    return {servers}
  }
}

function render(servers: ListedServer[]): string {
  if (servers.length === 0) return 'No MCP servers configured (settings.mcp_servers).'
  const paint = makePaint()
  const width = Math.max(...servers.map((s) => s.name.length))
  return servers
    .map((s) => {
      const state = s.enabled ? paint.green('enabled ') : paint.dim('disabled')
      const where = s.problem ? paint.red(`invalid: ${s.problem}`) : s.transport === 'http' ? `http  ${s.url}` : `stdio ${s.program}`
      const tier = s.tier ? paint.dim(`  (${s.tier})`) : ''
      return `${s.name.padEnd(width)}  ${state}  ${where}${tier}`
    })
    .join('\n')
}
