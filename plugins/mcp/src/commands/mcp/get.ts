import {makePaint, oneLine, REDACTED, redactServerArgs, redactServerUrl} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {commandServers, withSpinner} from '../../command-support.js'
import {pingText} from '../../slash.js'
import {
  DEFAULT_STARTUP_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  type McpServerEntry,
  parseMcpServers,
  programOf,
} from '../../server-config.js'

export interface McpGetResult {
  name: string
  /** The settings tier the server came from, when the settings say so. */
  tier?: string
  enabled: boolean
  /** false: set in this project's settings, which the user has not trusted (`hanzo-dev trust`). */
  trusted?: false
  transport?: 'stdio' | 'http'
  command?: string
  /** Secrets redacted (a token flag's value, a key-like word); paths and packages shown. */
  args?: unknown[]
  /** The variables' names; every value redacted. */
  env?: Record<string, string>
  url?: string
  /** The headers' names; every value redacted. */
  headers?: Record<string, string>
  startup_timeout_ms?: number
  tool_timeout_ms?: number
  trust_read_only_hint?: boolean
  /** Whether an OAuth client is set (`oauth` in the settings); its secret never shown. */
  oauth?: {configured: boolean; client_id?: string; client_secret?: string; scopes?: string[]}
  problem?: string
  /** Left out with --no-connect, and for a server that does not start (disabled, invalid, not trusted). */
  status?: 'connected' | 'failed'
  tools?: number
  /** The round trip of `ping` to the connected server, in milliseconds; `ping_error` when it did not answer. */
  ping_ms?: number
  ping_error?: string
  error?: string
  hint?: string
}

export default class McpGet extends Command {
  static enableJsonFlag = true

  static description = `Show one MCP server: its settings and whether it works.

Shows where the server is set (its settings tier), its transport, command and arguments or URL, timeouts and OAuth client, then starts it to show whether it connects, how many tools it offers and how long it takes to answer ping, or why it failed (--no-connect only reads the settings). Environment and header values, token-like arguments, query values and OAuth secrets are shown as ${REDACTED}. Exit 1 when the server is unknown or failed to start.`

  static examples = [
    '<%= config.bin %> mcp get everything',
    '<%= config.bin %> mcp get github --no-connect',
    '<%= config.bin %> mcp get everything --json | jq .tools',
  ]

  static args = {
    name: Args.string({description: 'The server name, as hanzo-dev mcp list shows it.', required: true}),
  }

  static flags = {
    connect: Flags.boolean({allowNo: true, default: true, description: 'Start the server to show its state.'}),
  }

  async run(): Promise<McpGetResult> {
    const {args, flags} = await this.parse(McpGet)
    const {entries, host, library, open} = await commandServers(this, undefined, {quiet: true})
    const parsed = parseMcpServers(host.settings.mcp_servers)
    if (parsed.problem)
      this.error(`${parsed.problem} (hanzo-dev config list --show-origin shows which file sets it)`, {exit: 1})
    const untrusted = parseMcpServers(host.untrusted?.mcp_servers).servers
    const found = parsed.servers.find((s) => s.name === args.name) ?? untrusted.find((s) => s.name === args.name)
    if (!found) {
      const known = [...parsed.servers, ...untrusted].map((s) => s.name)
      const close = known.filter((name) => similar(name, args.name))
      this.error(`No MCP server named ${oneLine(args.name)}`, {
        exit: 1,
        suggestions: [
          close.length > 0
            ? `did you mean ${close.map((name) => oneLine(name)).join(' or ')}?`
            : `the configured servers are: ${known.map((name) => oneLine(name)).join(', ') || 'none'}`,
        ],
      })
    }

    const isTrusted = parsed.servers.includes(found)
    let result: McpGetResult = {
      enabled: isTrusted && !found.disabled,
      name: found.name,
      ...(found.tier === undefined ? {} : {tier: found.tier}),
      ...(isTrusted ? {} : {trusted: false as const}),
      ...('problem' in found ? {problem: found.problem} : settingsOf(found.server)),
    }
    const entry = entries.find((s) => s.name === found.name)
    if (flags.connect && entry) {
      const servers = await open([entry])
      try {
        const [status] = await withSpinner(library, `Starting ${entry.name}…`, async () => {
          await servers.start()
          return servers.status()
        })
        const ping = status.state === 'connected' ? (await servers.pings()).get(entry.name) : undefined
        result =
          status.state === 'connected'
            ? {
                ...result,
                status: 'connected',
                tools: status.tools ?? 0,
                ...(typeof ping === 'number' ? {ping_ms: ping} : {ping_error: ping}),
              }
            : {
                ...result,
                status: 'failed',
                ...(status.error ? {error: status.error} : {}),
                ...(status.hint ? {hint: status.hint} : {}),
              }
      } finally {
        await servers.close()
      }
    }

    if (!flags.json) this.log(render(result))
    if (result.status === 'failed') process.exitCode = 1
    return result
  }
}

function settingsOf(server: McpServerEntry): Partial<McpGetResult> {
  const {oauth, transport} = server
  const names = (map: Record<string, string> | undefined) =>
    map && Object.keys(map).length > 0 ? Object.fromEntries(Object.keys(map).map((k) => [k, REDACTED])) : undefined
  const env = transport.type === 'stdio' ? names(transport.env) : undefined
  const headers = transport.type === 'http' ? names(transport.headers) : undefined
  return {
    transport: transport.type,
    ...(transport.type === 'stdio'
      ? {
          command: programOf(transport.command),
          ...(transport.args.length > 0 ? {args: redactServerArgs(transport.args)} : {}),
        }
      : {url: redactServerUrl(transport.url)}),
    ...(env ? {env} : {}),
    ...(headers ? {headers} : {}),
    startup_timeout_ms: server.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS,
    tool_timeout_ms: server.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    trust_read_only_hint: server.trustReadOnlyHint === true,
    ...(transport.type === 'http'
      ? {
          oauth: {
            configured: oauth !== undefined,
            ...(oauth?.clientId ? {client_id: oauth.clientId} : {}),
            ...(oauth?.clientSecret ? {client_secret: REDACTED} : {}),
            ...(oauth?.scopes ? {scopes: oauth.scopes} : {}),
          },
        }
      : {}),
  }
}

/** Close enough to be what was meant: the same but for case, or one holding the other. */
function similar(known: string, typed: string): boolean {
  const [a, b] = [known.toLowerCase(), typed.toLowerCase()]
  return a.includes(b) || b.includes(a)
}

/** The settings and the server wrote these values: shown through the printer. */
function render(result: McpGetResult): string {
  const paint = makePaint()
  const text = (value: unknown) => oneLine(String(value), Number.POSITIVE_INFINITY)
  const pairs = (map: Record<string, string> | undefined) =>
    map ? Object.entries(map).map(([k, v]) => `${k}=${v}`) : []
  const rows: [string, string | undefined][] = [
    ['name', result.name],
    ['tier', result.tier],
    ['state', result.trusted === false ? 'not trusted (run hanzo-dev trust)' : result.enabled ? 'enabled' : 'disabled'],
    ['problem', result.problem],
    ['transport', result.transport],
    ['command', result.command && [result.command, ...(result.args ?? [])].join(' ')],
    ['url', result.url],
    ['env', pairs(result.env).join(' ') || undefined],
    ['headers', pairs(result.headers).join(' ') || undefined],
    [
      'timeouts',
      result.startup_timeout_ms === undefined
        ? undefined
        : `start-up ${result.startup_timeout_ms} ms, tool call ${result.tool_timeout_ms} ms`,
    ],
    ['read-only', result.trust_read_only_hint ? "the server's readOnlyHint is trusted" : undefined],
    [
      'oauth',
      result.oauth &&
        (result.oauth.configured
          ? `client ${result.oauth.client_id ?? '(registered at login)'}${result.oauth.scopes ? `, scopes ${result.oauth.scopes.join(' ')}` : ''}`
          : 'no client set (hanzo-dev registers itself at mcp login)'),
    ],
    [
      'status',
      result.status === 'connected'
        ? paint.green(
            `connected, ${result.tools} tool${result.tools === 1 ? '' : 's'}, ${pingText(result.ping_ms ?? result.ping_error)}`,
          )
        : result.status === 'failed'
          ? paint.red(`failed: ${text(result.error)}`) + (result.hint ? paint.dim(` (${text(result.hint)})`) : '')
          : undefined,
    ],
  ]
  const shown = rows.filter((row): row is [string, string] => row[1] !== undefined)
  const width = Math.max(...shown.map(([label]) => label.length))
  return shown.map(([label, value]) => `${label.padEnd(width)}  ${label === 'status' ? value : text(value)}`).join('\n')
}
