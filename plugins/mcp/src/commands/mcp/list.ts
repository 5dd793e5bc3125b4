import {
  makePaint,
  oneLine,
  redactServerArgs,
  redactServerUrl,
  untrustedLine,
  type UntrustedSettings,
} from '@hanzo-dev/sdk'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {commandServers, withSpinner} from '../../command-support.js'
import type {ServerStatus} from '../../servers.js'

import {type ParsedServer, parseMcpServers, programOf} from '../../server-config.js'

export interface ListedServer {
  name: string
  enabled: boolean
  /** null when the entry is invalid (see `problem`). */
  transport: 'stdio' | 'http' | null
  /** stdio: the program started; its environment is never shown (tokens go there). */
  program?: string
  /** stdio: its arguments, a secret's (`--token X`, a key-like word) redacted. */
  args?: unknown[]
  /** http: the URL, its user info, fragment and key-like query values or path segments redacted. */
  url?: string
  /** The settings tier the server's command or url came from, when the settings say so. */
  tier?: string
  /** false: set in this project's settings, which the user has not trusted (`hanzo-dev trust`); it does not start. */
  trusted?: false
  problem?: string
  /** Started (not with --offline): connected, or failed with `error`. */
  status?: 'connected' | 'failed'
  /** How many tools a connected server offers. */
  tools?: number
  error?: string
  hint?: string
}

export interface McpListResult {
  servers: ListedServer[]
}

export default class McpList extends Command {
  static enableJsonFlag = true

  static description = `List the configured MCP servers and whether each one works.

Starts the enabled servers (in parallel, as a session does) to show whether each connects and how many tools it offers, or why it failed; --offline only reads the settings. Shows each server's transport: the program and arguments of a stdio server, an http server's URL. Environment and header values are never shown, since they are where tokens go, nor the value of a token-like argument, query parameter or path segment. A server with "disabled": true (in any tier) is listed as disabled. Exit 1 when a server failed to start (the list is still printed).`

  static examples = [
    '<%= config.bin %> mcp list',
    '<%= config.bin %> mcp list --offline',
    '<%= config.bin %> mcp list --json | jq ".servers[] | select(.status == \\"failed\\")"',
  ]

  static flags = {
    offline: Flags.boolean({description: 'Do not start the servers: show the settings only.'}),
  }

  async run(): Promise<McpListResult> {
    const {flags} = await this.parse(McpList)
    const {entries, host, library, open} = await commandServers(this, undefined, {quiet: true})
    let statuses: ServerStatus[] = []
    if (!flags.offline && entries.length > 0) {
      const running = await open(entries)
      try {
        statuses = await withSpinner(library, 'Starting MCP servers…', async () => {
          await running.start()
          return running.status()
        })
      } finally {
        await running.close()
      }
    }

    const parsed = parseMcpServers(host.settings.mcp_servers)
    if (parsed.problem)
      this.error(`${parsed.problem} (hanzo-dev config list --show-origin shows which file sets it)`, {exit: 1})

    // An untrusted project's servers are shown as not trusted: "none configured" would be untrue.
    const untrusted = parseMcpServers(host.untrusted?.mcp_servers).servers.map((entry) => ({
      ...listed(entry),
      enabled: false,
      trusted: false as const,
    }))
    const servers = [...parsed.servers.map((entry) => withStatus(listed(entry), statuses)), ...untrusted]
    if (!flags.json) this.log(render(servers, untrusted.length > 0 ? host.untrusted?.status : undefined))
    // A script (or CI) checking its servers with `mcp list` must not read a failed one as fine.
    if (servers.some((s) => s.status === 'failed')) process.exitCode = 1
    return {servers}
  }
}

function listed(entry: ParsedServer): ListedServer {
  const base = {enabled: !entry.disabled, name: entry.name, ...(entry.tier === undefined ? {} : {tier: entry.tier})}
  if ('problem' in entry) return {...base, problem: entry.problem, transport: null}
  const {transport} = entry.server
  return transport.type === 'http'
    ? {...base, transport: 'http', url: redactServerUrl(transport.url)}
    : {
        ...base,
        program: programOf(transport.command),
        transport: 'stdio',
        ...(transport.args.length > 0 ? {args: redactServerArgs(transport.args)} : {}),
      }
}

function withStatus(server: ListedServer, statuses: ServerStatus[]): ListedServer {
  const status = statuses.find((s) => s.name === server.name)
  if (!status) return server
  if (status.state === 'connected') return {...server, status: 'connected', tools: status.tools ?? 0}
  return {
    ...server,
    status: 'failed',
    ...(status.error ? {error: status.error} : {}),
    ...(status.hint ? {hint: status.hint} : {}),
  }
}

/** The settings (a cloned project's too, trusted or not) and the servers wrote the names, programs and errors: shown through the printer. */
function render(servers: ListedServer[], untrusted: UntrustedSettings['status'] | undefined): string {
  if (servers.length === 0) return 'No MCP servers configured (settings.mcp_servers).'
  const paint = makePaint()
  const text = (value: unknown) => oneLine(String(value), Number.POSITIVE_INFINITY)
  const names = servers.map((s) => text(s.name))
  const width = Math.max(...names.map((name) => name.length))
  const states = servers.map((s) => (s.trusted === false ? 'not trusted' : s.enabled ? 'enabled' : 'disabled'))
  const stateWidth = Math.max(...states.map((state) => state.length))
  const lines = servers.map((s, i) => {
    const state = states[i].padEnd(stateWidth)
    const shown = s.trusted === false ? paint.yellow(state) : s.enabled ? paint.green(state) : paint.dim(state)
    const where = s.problem
      ? paint.red(`invalid: ${text(s.problem)}`)
      : s.transport === 'http'
        ? `http  ${text(s.url)}`
        : `stdio ${text([s.program, ...(s.args ?? [])].join(' '))}`
    const tier = s.tier ? paint.dim(`  (${s.tier})`) : ''
    const status =
      s.status === 'connected' ? `  ${paint.green('connected')}, ${s.tools} tool${s.tools === 1 ? '' : 's'}` : ''
    const line = `${names[i].padEnd(width)}  ${shown}  ${where}${tier}${status}`
    return s.status === 'failed'
      ? `${line}\n${' '.repeat(width + 2)}${paint.red(`failed: ${text(s.error)}`)}${s.hint ? paint.dim(` (${text(s.hint)})`) : ''}`
      : line
  })
  if (untrusted) lines.push('', untrustedLine(untrusted))
  return lines.join('\n')
}
