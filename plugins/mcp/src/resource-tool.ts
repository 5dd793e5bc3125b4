import {type ToolDefinition, toolError} from '@hanzo-dev/sdk'

import type {McpConnection} from './connection.js'
import {McpServerError, serverToolError} from './server-error.js'
import {READ_RESOURCE_TOOL, resourceResult} from './tool-result.js'

// A type, not an interface: it must fit the host's `Record<string, unknown>` input.
type ReadInput = {server: string; uri: string}

/**
 * `mcp_read_resource`: the model reads a resource of a session's server, one a tool result
 * linked to or one the server lists. It only reads, so it runs as a read; its subject is the URI,
 * so rules such as `mcp_read_resource(file:///*)` can hold it.
 */
export function readResourceTool(
  withResources: () => McpConnection[],
  /** After a read: the session follows what was read (subscriptions), without holding the result. */
  onRead?: (connection: McpConnection, uri: string) => Promise<unknown>,
): ToolDefinition<ReadInput> {
  return {
    describe: ({server, uri}) => `${server}: ${uri}`,
    description:
      'Read a resource of an MCP server by its URI: one a tool result links to, or one the server lists. Returns its text; images as images; other binary content described by type and size.',
    async execute({server, uri}, context) {
      const connection = withResources().find((c) => c.name === server)
      if (!connection) {
        const names = withResources().map((c) => c.name)
        return toolError(
          `no MCP server "${server}" with resources in this session${names.length > 0 ? ` (servers with resources: ${names.join(', ')})` : ''}`,
        )
      }

      try {
        const result = resourceResult(await connection.readResource(uri, context.signal))
        void onRead?.(connection, uri)
        return result
      } catch (error) {
        if (error instanceof McpServerError) return serverToolError(error)
        throw error
      }
    },
    inputSchema: {
      additionalProperties: false,
      properties: {
        server: {description: 'The MCP server, as the tool result or resource list names it', type: 'string'},
        uri: {description: 'The resource URI', type: 'string'},
      },
      required: ['server', 'uri'],
      type: 'object',
    },
    kind: 'read',
    mutating: false,
    name: READ_RESOURCE_TOOL,
    subject: ({uri}) => ({kind: 'url', url: uri}),
  }
}
