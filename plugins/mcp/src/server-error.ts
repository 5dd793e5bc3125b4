import {type ToolResult, toolError} from '@hanzo-dev/sdk'

import {InsufficientScopeError} from './scope-step-up.js'
import type {McpTransport} from './server-config.js'

/** A server error the user can act on: the server named, what happened, what to try. */
export class McpServerError extends Error {
  override name = 'McpServerError'
  constructor(
    readonly server: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message)
  }
}

/** What happened, then what to try. */
export function serverErrorText(error: McpServerError): string {
  return error.hint ? `${error.message} (${error.hint})` : error.message
}

/** A server's failure as the model is told it: a result, not an end of the turn. */
export function serverToolError(error: McpServerError): ToolResult {
  return toolError(serverErrorText(error))
}
/**
 * What went wrong with a server, said so the user can act on it: a login, a login with more
 * scopes, a command not found, a server not reached, or the server's own words.
 */
export function connectionFailure(
  error: unknown,
  doing: string,
  {hint, server: name, transport}: {server: string; transport: McpTransport; hint: string},
): McpServerError {
  if (error instanceof McpServerError) return error
  const message = error instanceof Error ? error.message : String(error)
  if (error instanceof Error && (error.name === 'UnauthorizedError' || (error as {code?: unknown}).code === 401)) {
    return new McpServerError(name, `MCP server "${name}" needs you to log in`, `run hanzo-dev mcp login ${name}`)
  }

  if (error instanceof InsufficientScopeError) {
    return new McpServerError(
      name,
      `MCP server "${name}" needs a login with more access (scopes: ${error.scopes.join(' ')})`,
      `run hanzo-dev mcp login ${name} --scope "${error.scopes.join(' ')}"`,
    )
  }

  if (transport.type === 'stdio' && (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    return new McpServerError(
      name,
      `MCP server "${name}" cannot start: ${transport.command} not found`,
      `install it, or fix mcp_servers.${name}.command`,
    )
  }

  // fetch says only "fetch failed"; what failed (ECONNREFUSED, a DNS name) is its cause.
  const cause = (error as {cause?: {code?: string; message?: string}} | undefined)?.cause
  const why =
    message === 'fetch failed' && cause
      ? `cannot reach ${transport.type === 'http' ? transport.url.origin : 'it'} (${cause.code ?? cause.message})`
      : message
  return new McpServerError(name, `MCP server "${name}" failed ${doing}: ${why}`, hint)
}
