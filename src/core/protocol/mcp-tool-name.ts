import {createHash} from 'node:crypto'

import {ProtocolError} from './protocol-error.js'

/**
 * MCP tool names as the model sees them (HIP-301 §1): `mcp__<server>__<tool>`, a valid wire
 * name for both OpenAI and Anthropic (`^[a-zA-Z0-9_-]{1,64}$`). The rules, shared with the
 * vectors in test-vectors/mcp-normalization.json:
 *
 * 1. Server and tool names must not be empty.
 * 2. Every code point outside [a-zA-Z0-9_-] becomes one "_"; case is kept.
 * 3. "__" ends the server part, so a server name must not contain "__" or end with "_" after
 *    step 2 (the tool may contain anything), and has at most 32 characters so that every
 *    tool keeps room. Such a server name is refused, not silently changed.
 * 4. A name over 64 characters keeps its first 55 and gets "_" plus 8 hex digits of the
 *    SHA-256 of the whole name: stable, and distinct tools stay distinct.
 *
 * Two different tools can still normalize to the same name ("a.b" and "a_b"): whoever
 * registers tools must detect that collision and keep the original names for calls.
 */
export const MCP_TOOL_PREFIX = 'mcp__'
export const MAX_TOOL_NAME_LENGTH = 64
export const MAX_MCP_SERVER_NAME_LENGTH = 32

const SEPARATOR = '__'
const HASH_LENGTH = 8
const WIRE_NAME = /^[\w-]{1,64}$/
const OUTSIDE_WIRE_ALPHABET = /[^\w-]/gu

export interface McpToolNameParts {
  server: string
  tool: string
}

function sanitize(name: string): string {
  return name.replaceAll(OUTSIDE_WIRE_ALPHABET, '_')
}

function refuse(what: string, name: string, why: string): never {
  throw new ProtocolError('mcp_invalid_name', `MCP ${what} name ${JSON.stringify(name)} ${why}`)
}

/** The server part every tool of `server` gets; throws a ProtocolError when refused. */
export function normalizeMcpServerName(server: string): string {
  if (server.length === 0) refuse('server', server, 'is empty')
  const normalized = sanitize(server)
  if (normalized.includes(SEPARATOR) || normalized.endsWith('_')) {
    refuse(
      'server',
      server,
      `cannot be used: "${SEPARATOR}" separates the server from the tool, so the name must not contain "${SEPARATOR}" or end with "_" (characters other than letters, digits, "_" and "-" count as "_")`,
    )
  }

  if (normalized.length > MAX_MCP_SERVER_NAME_LENGTH) {
    refuse('server', server, `is longer than ${MAX_MCP_SERVER_NAME_LENGTH} characters`)
  }

  return normalized
}

/** `mcp__<server>__<tool>`, as the rules above; throws a ProtocolError when refused. */
export function normalizeMcpToolName(server: string, tool: string): string {
  const serverPart = normalizeMcpServerName(server)
  if (tool.length === 0) refuse('tool', tool, 'is empty')
  const name = `${MCP_TOOL_PREFIX}${serverPart}${SEPARATOR}${sanitize(tool)}`
  if (name.length <= MAX_TOOL_NAME_LENGTH) return name
  const hash = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, HASH_LENGTH)
  return `${name.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`
}

/** The server and tool parts of a normalized name; undefined when it is not one. */
export function parseMcpToolName(name: string): McpToolNameParts | undefined {
  if (!WIRE_NAME.test(name) || !name.startsWith(MCP_TOOL_PREFIX)) return undefined
  const end = name.indexOf(SEPARATOR, MCP_TOOL_PREFIX.length)
  if (end <= MCP_TOOL_PREFIX.length || end + SEPARATOR.length === name.length) return undefined
  return {server: name.slice(MCP_TOOL_PREFIX.length, end), tool: name.slice(end + SEPARATOR.length)}
}
