import {isRecord} from '@hanzo-dev/sdk'

export type McpTransport = {type: 'stdio'; command: string; args: string[]} | {type: 'http'; url: URL}

export interface McpServerEntry {
  name: string
  disabled: boolean
  transport: McpTransport
}

/**
 * A disabled server never starts, so a problem in it is carried but does not matter. `tier`: the
 * settings tier the loader tagged the entry with (project servers need trust), valid or not.
 */
export type ParsedServer = {name: string; disabled: boolean; tier?: string} & ({server: McpServerEntry} | {problem: string})

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

function parseServer(name: string, entry: unknown): ParsedServer {
  const disabled = isRecord(entry) && entry.disabled === true
  const tier = isRecord(entry) && typeof entry.tier === 'string' ? {tier: entry.tier} : {}
  const fail = (problem: string): ParsedServer => ({disabled, name, problem, ...tier})
  if (!isRecord(entry)) return fail('must be an object: {command, args} or {url}')
  if (entry.disabled !== undefined && typeof entry.disabled !== 'boolean') return fail('"disabled" must be true or false')
  const hasCommand = entry.command !== undefined
  const hasUrl = entry.url !== undefined
  if (hasCommand && hasUrl) return fail('set either "command" (stdio) or "url" (http), not both')
  if (!hasCommand && !hasUrl) return fail('needs "command" (a stdio server) or "url" (an http server)')

  if (hasUrl) {
    const url = parseHttpUrl(entry.url)
    return url ? {disabled, name, server: {disabled, name, transport: {type: 'http', url}}, ...tier} : fail('"url" must be an http:// or https:// URL')
  }

  const argv = typeof entry.command === 'string' ? [entry.command] : entry.command
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === 'string') || argv[0] === '') {
    return fail('"command" must be a program name or path, or a non-empty list [program, ...args]')
  }

  const args = entry.args ?? []
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) return fail('"args" must be a list of strings')
  const [command, ...leading] = argv as string[]
  return {disabled, name, server: {disabled, name, transport: {args: [...leading, ...(args as string[])], command, type: 'stdio'}}, ...tier}
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
