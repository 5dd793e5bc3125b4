import {isRecord} from './settings.js'

/**
 * Claude Code's and Cursor's project file of MCP servers (`.mcp.json` at the project root): the
 * core reads it as project settings (after trust), `mcp import` copies it into a settings file.
 */
export const MCP_JSON_FILE = '.mcp.json'

/** A server entry as the settings file holds it: what `mcp add` and `mcp import` write. */
export interface SettingsServer {
  command?: string
  args?: string[]
  env?: Record<string, string>
  url?: string
  headers?: Record<string, string>
}

export interface McpJsonServers {
  servers: {name: string; entry: SettingsServer}[]
  /** Entries left out, with why. */
  skipped: {name: string; reason: string}[]
}

const KNOWN = new Set(['command', 'args', 'env', 'url', 'headers', 'type'])

/**
 * The `mcpServers` block of a parsed `.mcp.json` as settings entries: `{command, args, env}` for a
 * stdio server, `{type: "http" | "sse", url, headers}` for a remote one (our HTTP transport speaks
 * both). Anything else in an entry is named, not guessed at. `${VAR}` references are kept as
 * written: they are expanded when a server starts (expandVariables), so no value reaches a file.
 */
export function mcpJsonServers(parsed: unknown, file: string): McpJsonServers {
  const block = isRecord(parsed) ? parsed.mcpServers : undefined
  if (!isRecord(block)) throw new Error(`${file} has no "mcpServers" object`)
  const result: McpJsonServers = {servers: [], skipped: []}
  for (const [name, raw] of Object.entries(block)) {
    const entry = convert(raw)
    if (typeof entry === 'string') result.skipped.push({name, reason: entry})
    else result.servers.push({entry, name})
  }

  return result
}

const VARIABLE = /\$\{([A-Za-z_]\w*)(?::-([^}]*))?\}/g

/** `text` with each `${NAME}` (or `${NAME:-default}`, for a variable unset or empty) replaced; unset names are added to `unset`. */
export function expandVariables(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  unset: Set<string>,
): string {
  return text.replaceAll(VARIABLE, (_, name: string, fallback: string | undefined) => {
    const value = env[name]
    if (value !== undefined && (value !== '' || fallback === undefined)) return value
    if (fallback !== undefined) return fallback
    unset.add(name)
    return ''
  })
}

function convert(raw: unknown): SettingsServer | string {
  if (!isRecord(raw)) return 'not an object'
  const unknown = Object.keys(raw).filter((key) => !KNOWN.has(key))
  if (unknown.length > 0) return `has settings hanzo-dev does not read: ${unknown.join(', ')}`
  const strings = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string')
  const stringMap = (value: unknown) =>
    value === undefined || (isRecord(value) && Object.values(value).every((v) => typeof v === 'string'))
  if (typeof raw.url === 'string') {
    if (raw.type !== undefined && raw.type !== 'http' && raw.type !== 'sse' && raw.type !== 'streamable-http')
      return `type ${JSON.stringify(raw.type)} is not http or sse`
    if (!stringMap(raw.headers)) return '"headers" must map names to strings'
    return {url: raw.url, ...(raw.headers ? {headers: raw.headers as Record<string, string>} : {})}
  }

  if (typeof raw.command !== 'string' || raw.command === '') return 'needs "command" or "url"'
  if (raw.args !== undefined && !strings(raw.args)) return '"args" must be a list of strings'
  if (!stringMap(raw.env)) return '"env" must map names to strings'
  const args = (raw.args as string[] | undefined) ?? []
  return {
    command: raw.command,
    ...(args.length > 0 ? {args} : {}),
    ...(raw.env && Object.keys(raw.env).length > 0 ? {env: raw.env as Record<string, string>} : {}),
  }
}
