import {isRecord} from '@hanzo-dev/sdk'
import {CREDENTIAL_ENV_VARS} from '@hanzo-dev/sdk/settings'
import {expandVariables} from '@hanzo-dev/sdk/mcp-json'
import type {LoggingLevel} from '@modelcontextprotocol/sdk/types.js'

/** `env` and `headers` only when set: they are where tokens go, so they are never shown. */
export type McpTransport =
  | {type: 'stdio'; command: string; args: string[]; env?: Record<string, string>}
  | {type: 'http'; url: URL; headers?: Record<string, string>}

export interface McpServerEntry {
  name: string
  disabled: boolean
  transport: McpTransport
  /** How long the server may take to start and answer `initialize` (default {@link DEFAULT_STARTUP_TIMEOUT_MS}). */
  startupTimeoutMs?: number
  /** How long one tool call may take (default {@link DEFAULT_TOOL_TIMEOUT_MS}). */
  toolTimeoutMs?: number
  /** true: a tool the server marks `readOnlyHint` counts as read-only; otherwise every MCP tool counts as mutating. */
  trustReadOnlyHint?: boolean
  /** What the server should log at least (`logging/setLevel` after connecting, when it logs). */
  logLevel?: LoggingLevel
  /** The OAuth client of an HTTP server's login (`mcp login`); without one, hanzo-dev registers itself. */
  oauth?: McpOAuthClient
}

export interface McpOAuthClient {
  clientId?: string
  clientSecret?: string
  scopes?: string[]
  /** `client_credentials`: a machine-to-machine server, its tokens got with the client's secret, no login. */
  grant?: 'authorization_code' | 'client_credentials'
}

export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000

/**
 * A disabled server never starts, so a problem in it is carried but does not matter. `tier`: the
 * settings tier the loader tagged the entry with (project servers need trust), valid or not.
 */
export type ParsedServer = {name: string; disabled: boolean; tier?: string} & (
  {server: McpServerEntry} | {problem: string}
)

export interface ParsedServers {
  servers: ParsedServer[]
  /** Set when `mcp_servers` is not a map at all. */
  problem?: string
}

/**
 * Reads `settings.mcp_servers` (HIP-301 §1 McpServerConfig, plus `url` for HTTP servers and
 * `disabled`). `command` is a program, or a list `[program, ...args]`; it is never split on
 * spaces, because servers are spawned without a shell. Each server is read on its own, so
 * one bad entry does not hide the others.
 */
export function parseMcpServers(raw: unknown): ParsedServers {
  if (raw === undefined || raw === null) return {servers: []}
  if (!isRecord(raw)) return {problem: '"mcp_servers" must map server names to {command, args} or {url}', servers: []}
  return {servers: Object.entries(raw).map(([name, entry]) => parseServer(name, entry))}
}

/**
 * The servers a session starts, and a line for each entry it cannot (an invalid one, or none at
 * all). With `env`, `${VAR}` and `${VAR:-default}` in an entry's command, args, env, url and
 * headers take their values from it (as Claude Code expands `.mcp.json`); `warnings` name each
 * variable unset without a default: the server starts with it empty.
 */
export function enabledServers(
  raw: unknown,
  env?: Readonly<Record<string, string | undefined>>,
): {servers: McpServerEntry[]; problems: string[]; warnings: string[]} {
  const unset = new Map<string, Set<string>>()
  const parsed = parseMcpServers(env && isRecord(raw) ? expandServers(raw, env, unset) : raw)
  if (parsed.problem) return {problems: [`mcp_servers: ${parsed.problem}`], servers: [], warnings: []}
  const servers: McpServerEntry[] = []
  const problems: string[] = []
  for (const entry of parsed.servers) {
    if (entry.disabled) continue
    if ('problem' in entry)
      problems.push(`MCP server "${entry.name}" is not started: mcp_servers.${entry.name}: ${entry.problem}`)
    else servers.push(entry.server)
  }

  // Names only: a value would be the very secret the variable keeps out of the file.
  const warnings = [...unset]
    .filter(([name]) => servers.some((s) => s.name === name))
    .map(([name, variables]) => {
      const shown = [...variables].map((v) => `\${${v}}`).join(', ')
      const keys = [...variables].some((v) => (CREDENTIAL_ENV_VARS as readonly string[]).includes(v))
      return keys
        ? `MCP server "${name}" uses ${shown}: a project's server is not given hanzo-dev's own keys, nor an unset variable (left empty)`
        : `MCP server "${name}" uses ${shown}, not set and without a default: left empty`
    })
  return {problems, servers, warnings}
}

const EXPANDED = ['command', 'args', 'env', 'url', 'headers']

function expandServers(
  raw: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
  unset: Map<string, Set<string>>,
): Record<string, unknown> {
  // As the redirect guard keeps a project from pointing the model keys elsewhere, its servers'
  // `${ANTHROPIC_API_KEY}` stays empty: only the user's own settings may hand a key to a server.
  const projectEnv = {...env, ...Object.fromEntries(CREDENTIAL_ENV_VARS.map((name) => [name, undefined]))}
  const expand = (value: unknown, vars: typeof env, names: Set<string>): unknown => {
    if (typeof value === 'string') return expandVariables(value, vars, names)
    if (Array.isArray(value)) return value.map((item) => expand(item, vars, names))
    if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, vars, names)]))
    return value
  }

  return Object.fromEntries(
    Object.entries(raw).map(([name, entry]) => {
      if (!isRecord(entry)) return [name, entry]
      const names = new Set<string>()
      const vars = entry.tier === 'project' || entry.tier === 'local' ? projectEnv : env
      const expanded = Object.fromEntries(
        Object.entries(entry).map(([key, value]) => [key, EXPANDED.includes(key) ? expand(value, vars, names) : value]),
      )
      if (names.size > 0) unset.set(name, names)
      return [name, expanded]
    }),
  )
}

function parseServer(name: string, entry: unknown): ParsedServer {
  const disabled = isRecord(entry) && entry.disabled === true
  const tier = isRecord(entry) && typeof entry.tier === 'string' ? {tier: entry.tier} : {}
  const fail = (problem: string): ParsedServer => ({disabled, name, problem, ...tier})
  if (!isRecord(entry)) return fail('must be an object: {command, args} or {url}')
  if (entry.disabled !== undefined && typeof entry.disabled !== 'boolean')
    return fail('"disabled" must be true or false')
  const hasCommand = entry.command !== undefined
  const hasUrl = entry.url !== undefined
  if (hasCommand && hasUrl) return fail('set either "command" (stdio) or "url" (http), not both')
  if (!hasCommand && !hasUrl) return fail('needs "command" (a stdio server) or "url" (an http server)')

  const options = parseOptions(entry)
  if (typeof options === 'string') return fail(options)
  if (hasUrl) {
    const url = parseHttpUrl(entry.url)
    if (!url) return fail('"url" must be an http:// or https:// URL')
    const headers = stringMap(entry.headers, 'headers')
    if (typeof headers === 'string') return fail(headers)
    const oauth = parseOAuth(entry.oauth)
    if (typeof oauth === 'string') return fail(oauth)
    const transport: McpTransport = {type: 'http', url, ...(headers ? {headers} : {})}
    return {disabled, name, server: {disabled, name, transport, ...options, ...(oauth ? {oauth} : {})}, ...tier}
  }

  const argv = typeof entry.command === 'string' ? [entry.command] : entry.command
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === 'string') || argv[0] === '') {
    return fail('"command" must be a program name or path, or a non-empty list [program, ...args]')
  }

  const args = entry.args ?? []
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) return fail('"args" must be a list of strings')
  const env = stringMap(entry.env, 'env')
  if (typeof env === 'string') return fail(env)
  const [command, ...leading] = argv as string[]
  const transport: McpTransport = {
    args: [...leading, ...(args as string[])],
    command,
    type: 'stdio',
    ...(env ? {env} : {}),
  }
  return {disabled, name, server: {disabled, name, transport, ...options}, ...tier}
}

type ServerOptions = Pick<McpServerEntry, 'logLevel' | 'startupTimeoutMs' | 'toolTimeoutMs' | 'trustReadOnlyHint'>

/** MCP's levels (RFC 5424), least severe first. */
const LOG_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]

function parseOptions(entry: Record<string, unknown>): ServerOptions | string {
  const options: ServerOptions = {}
  for (const [key, field] of [
    ['startup_timeout_ms', 'startupTimeoutMs'],
    ['tool_timeout_ms', 'toolTimeoutMs'],
  ] as const) {
    const value = entry[key]
    if (value === undefined) continue
    if (!Number.isSafeInteger(value) || (value as number) <= 0)
      return `"${key}" must be a whole number of milliseconds above 0`
    options[field] = value as number
  }

  if (entry.trust_read_only_hint !== undefined) {
    if (typeof entry.trust_read_only_hint !== 'boolean') return '"trust_read_only_hint" must be true or false'
    options.trustReadOnlyHint = entry.trust_read_only_hint
  }

  if (entry.log_level !== undefined) {
    if (!LOG_LEVELS.includes(entry.log_level as LoggingLevel))
      return `"log_level" must be one of ${LOG_LEVELS.join(', ')}`
    options.logLevel = entry.log_level as LoggingLevel
  }

  return options
}

function parseOAuth(value: unknown): McpOAuthClient | undefined | string {
  if (value === undefined) return undefined
  if (!isRecord(value)) return '"oauth" must be an object: {client_id, client_secret, scopes, grant}'
  const client: McpOAuthClient = {}
  for (const [key, field] of [
    ['client_id', 'clientId'],
    ['client_secret', 'clientSecret'],
  ] as const) {
    if (value[key] === undefined) continue
    if (typeof value[key] !== 'string' || value[key] === '') return `"oauth.${key}" must be a non-empty string`
    client[field] = value[key]
  }

  if (value.scopes !== undefined) {
    if (!Array.isArray(value.scopes) || !value.scopes.every((s) => typeof s === 'string'))
      return '"oauth.scopes" must be a list of strings'
    client.scopes = value.scopes as string[]
  }

  if (value.grant !== undefined) {
    if (value.grant !== 'authorization_code' && value.grant !== 'client_credentials')
      return '"oauth.grant" must be "authorization_code" or "client_credentials"'
    if (value.grant === 'client_credentials' && (!client.clientId || !client.clientSecret))
      return '"oauth.grant": "client_credentials" needs "oauth.client_id" and "oauth.client_secret"'
    client.grant = value.grant
  }

  return client
}

function stringMap(value: unknown, key: string): Record<string, string> | undefined | string {
  if (value === undefined) return undefined
  if (!isRecord(value) || !Object.values(value).every((v) => typeof v === 'string'))
    return `"${key}" must map names to strings`
  return value as Record<string, string>
}

function parseHttpUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string') return undefined
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined
  } catch {
    return undefined
  }
}

/**
 * `command` is one program, never split (servers start without a shell); a value with spaces
 * in it is most likely a whole command line pasted in one string, whose later words may be a
 * token, so only its first word is shown.
 */
export function programOf(command: string): string {
  const [first] = command.trim().split(/\s+/)
  return first === command ? command : `${first} …`
}
