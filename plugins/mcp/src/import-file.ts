import {isRecord} from '@hanzo-dev/sdk'

import type {SettingsServer} from './server-entry.js'

export interface ImportedServers {
  servers: {name: string; entry: SettingsServer}[]
  /** Entries left out, with why. */
  skipped: {name: string; reason: string}[]
  /** Variables used as `${NAME}`, unset and without a `:-default`: left empty (each name once). */
  unset: string[]
}

type Env = Readonly<Record<string, string | undefined>>

const KNOWN = new Set(['command', 'args', 'env', 'url', 'headers', 'type'])

/**
 * The `mcpServers` block of a Claude Code / Cursor style `.mcp.json` as our settings entries:
 * `{command, args, env}` for a stdio server, `{type: "http" | "sse", url, headers}` for a remote
 * one (our HTTP transport speaks both). Anything else in an entry is named, not guessed at.
 * `${VAR}` and `${VAR:-default}` in the command, args, env, url and headers take their values
 * from `env`, as Claude Code expands them.
 */
export function readMcpJson(text: string, file: string, env: Env): ImportedServers {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`)
  }

  const block = isRecord(parsed) ? parsed.mcpServers : undefined
  if (!isRecord(block)) throw new Error(`${file} has no "mcpServers" object`)
  const result: ImportedServers = {servers: [], skipped: [], unset: []}
  const unset = new Set<string>()
  for (const [name, raw] of Object.entries(block)) {
    const entry = convert(raw)
    if (typeof entry === 'string') result.skipped.push({name, reason: entry})
    else result.servers.push({entry: expandEntry(entry, env, unset), name})
  }

  result.unset = [...unset]
  return result
}

const VARIABLE = /\$\{([A-Za-z_]\w*)(?::-([^}]*))?\}/g

/** `text` with each `${NAME}` (or `${NAME:-default}`, for a variable unset or empty) replaced; unset names are added to `unset`. */
export function expandVariables(text: string, env: Env, unset: Set<string>): string {
  return text.replaceAll(VARIABLE, (_, name: string, fallback: string | undefined) => {
    const value = env[name]
    if (value !== undefined && (value !== '' || fallback === undefined)) return value
    if (fallback !== undefined) return fallback
    unset.add(name)
    return ''
  })
}

function expandEntry(entry: SettingsServer, env: Env, unset: Set<string>): SettingsServer {
  const expand = (value: unknown): unknown => {
    if (typeof value === 'string') return expandVariables(value, env, unset)
    if (Array.isArray(value)) return value.map(expand)
    if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]))
    return value
  }

  return expand(entry) as SettingsServer
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
