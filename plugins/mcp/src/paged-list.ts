import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {RequestOptions} from '@modelcontextprotocol/sdk/shared/protocol.js'
import type {Prompt, Resource, ResourceTemplate, Tool} from '@modelcontextprotocol/sdk/types.js'

import {McpServerError} from './server-error.js'

/** The most pages of one listing (`tools/list`, `resources/list`, ...) read from one server. */
export const MAX_TOOL_PAGES = 100

/** One page of a listing: its items and where the next starts. */
export type PageReader<T> = (
  client: Client,
  cursor: string | undefined,
  options: RequestOptions,
) => Promise<{items: T[]; nextCursor?: string}>

/**
 * Every page of a listing, bounded: a server that always answers with a `nextCursor` (or pages
 * slowly forever) would keep `mcp list` and the session's start waiting. Past
 * {@link MAX_TOOL_PAGES} pages, or the start-up timeout for the whole listing, the server fails.
 */
export async function listPages<T>(
  client: Client,
  page: PageReader<T>,
  bounds: {server: string; what: string; timeoutMs: number; hint: string},
): Promise<T[]> {
  const {hint, server, timeoutMs, what} = bounds
  const deadline = AbortSignal.timeout(timeoutMs)
  const items: T[] = []
  let cursor: string | undefined
  for (let n = 0; n < MAX_TOOL_PAGES; n++) {
    let answer
    try {
      answer = await page(client, cursor, {signal: deadline, timeout: timeoutMs})
    } catch (error) {
      if (!deadline.aborted) throw error
      throw new McpServerError(server, `MCP server "${server}" did not list its ${what} within ${timeoutMs} ms`, hint)
    }

    items.push(...answer.items)
    cursor = answer.nextCursor
    if (!cursor) return items
  }

  throw new McpServerError(
    server,
    `MCP server "${server}" lists more than ${MAX_TOOL_PAGES} pages of ${what} (it may never stop)`,
    'ask its maintainers; hanzo-dev left it out',
  )
}

/** How each listing reads one page. */
export const PAGES: {
  tools: PageReader<Tool>
  resources: PageReader<Resource>
  resourceTemplates: PageReader<ResourceTemplate>
  prompts: PageReader<Prompt>
} = {
  async prompts(client, cursor, options) {
    const page = await client.listPrompts(cursor ? {cursor} : undefined, options)
    return {items: page.prompts, nextCursor: page.nextCursor}
  },
  async resources(client, cursor, options) {
    const page = await client.listResources(cursor ? {cursor} : undefined, options)
    return {items: page.resources, nextCursor: page.nextCursor}
  },
  async resourceTemplates(client, cursor, options) {
    const page = await client.listResourceTemplates(cursor ? {cursor} : undefined, options)
    return {items: page.resourceTemplates, nextCursor: page.nextCursor}
  },
  async tools(client, cursor, options) {
    const page = await client.listTools(cursor ? {cursor} : undefined, options)
    return {items: page.tools, nextCursor: page.nextCursor}
  },
}
