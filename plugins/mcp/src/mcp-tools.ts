import type {ToolDefinition} from '@hanzo-dev/sdk'
import type {Tool} from '@modelcontextprotocol/sdk/types.js'

import type {McpConnection} from './connection.js'
import type {McpServerEntry} from './server-config.js'
import {McpServerError, serverToolError} from './server-error.js'
import type {ToolPins} from './tool-pins.js'
import {toToolResult, visibleText} from './tool-result.js'

/** Longer descriptions are cut: a server should not fill the model's context with one tool. */
export const MAX_DESCRIPTION_CHARS = 2048

export interface ToolNaming {
  normalizeMcpToolName(server: string, tool: string): string
}

/**
 * A server's tools as the agent's: named `mcp__<server>__<tool>`, described without hidden
 * characters, mutating unless the server marks them read-only AND the user's settings trust
 * that (`trust_read_only_hint`), and asked about again when they changed since last run.
 * Two tools whose names normalize alike keep the first; the other is reported.
 */
export function mcpToolDefinitions(
  connection: McpConnection,
  server: McpServerEntry,
  tools: readonly Tool[],
  naming: ToolNaming,
  pins: ToolPins,
  /** What a call's result waits for: the tool list its server re-lists after saying it changed. */
  settled: () => Promise<void> = () => Promise.resolve(),
): {tools: ToolDefinition[]; warnings: string[]} {
  const seen = new Map<string, string>()
  const warnings: string[] = []
  const definitions: ToolDefinition[] = []
  for (const tool of tools) {
    let name: string
    try {
      name = naming.normalizeMcpToolName(server.name, tool.name)
    } catch (error) {
      warnings.push(`MCP server "${server.name}": ${error instanceof Error ? error.message : String(error)}`)
      continue
    }

    const first = seen.get(name)
    if (first !== undefined) {
      warnings.push(
        `MCP server "${server.name}": tool ${JSON.stringify(tool.name)} is left out: its name becomes ${name}, as ${JSON.stringify(first)}'s does`,
      )
      continue
    }

    seen.set(name, tool.name)
    definitions.push(definition(connection, server, tool, name, pins, settled))
  }

  return {tools: definitions, warnings}
}

function definition(
  connection: McpConnection,
  server: McpServerEntry,
  tool: Tool,
  name: string,
  pins: ToolPins,
  settled: () => Promise<void>,
): ToolDefinition {
  const described = visibleText(
    [tool.title, tool.description].filter(Boolean).join(': ') || `The ${tool.name} tool of MCP server ${server.name}.`,
  )
  const description =
    described.length > MAX_DESCRIPTION_CHARS ? `${described.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : described
  return {
    description,
    async execute(input, context) {
      try {
        const result = toToolResult(await connection.callTool(tool.name, input, context.signal), server.name)
        // The call got here through the permission step: this definition is what the user let run.
        await pins.pin(server.name, tool).catch(() => {})
        await settled()
        return result
      } catch (error) {
        if (error instanceof McpServerError) return serverToolError(error)
        throw error
      }
    },
    inputSchema: tool.inputSchema,
    mutating: !(server.trustReadOnlyHint === true && tool.annotations?.readOnlyHint === true),
    name,
    reconfirm: () => pins.changed(server.name, tool),
  }
}
