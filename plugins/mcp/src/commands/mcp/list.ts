import {loadCommandHost, makePaint, redactUrl, untrustedLine, type UntrustedSettings} from '@hanzo-dev/sdk'
import {Command} from '@oclif/core/command'

import {type ParsedServer, parseMcpServers, programOf} from '../../server-config.js'

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
  /** false: set in this project's settings, which the user has not trusted (`hanzo-dev trust`); it does not start. */
  trusted?: false
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

    // An untrusted project's servers are shown as not trusted: "none configured" would be untrue.
    const untrusted = parseMcpServers(host.untrusted?.mcp_servers).servers.map((entry) => ({...listed(entry), enabled: false, trusted: false as const}))
    const servers = [...parsed.servers.map((entry) => listed(entry)), ...untrusted]
    if (!flags.json) this.log(render(servers, untrusted.length > 0 ? host.untrusted?.status : undefined))
    return {servers}
  }
}

function listed(entry: ParsedServer): ListedServer {
  const base = {enabled: !entry.disabled, name: entry.name, ...(entry.tier === undefined ? {} : {tier: entry.tier})}
  if ('problem' in entry) return {...base, problem: entry.problem, transport: null}
  const {transport} = entry.server
  return transport.type === 'http'
    ? {...base, transport: 'http', url: redactUrl(transport.url)}
    : {...base, program: programOf(transport.command), transport: 'stdio'}
}

function render(servers: ListedServer[], untrusted: UntrustedSettings['status'] | undefined): string {
  if (servers.length === 0) return 'No MCP servers configured (settings.mcp_servers).'
  const paint = makePaint()
  const width = Math.max(...servers.map((s) => s.name.length))
  const states = servers.map((s) => (s.trusted === false ? 'not trusted' : s.enabled ? 'enabled' : 'disabled'))
  const stateWidth = Math.max(...states.map((state) => state.length))
  const lines = servers.map((s, i) => {
    const state = states[i].padEnd(stateWidth)
    const shown = s.trusted === false ? paint.yellow(state) : s.enabled ? paint.green(state) : paint.dim(state)
    const where = s.problem ? paint.red(`invalid: ${s.problem}`) : s.transport === 'http' ? `http  ${s.url}` : `stdio ${s.program}`
    const tier = s.tier ? paint.dim(`  (${s.tier})`) : ''
    return `${s.name.padEnd(width)}  ${shown}  ${where}${tier}`
  })
  if (untrusted) lines.push('', untrustedLine(untrusted))
  return lines.join('\n')
}
