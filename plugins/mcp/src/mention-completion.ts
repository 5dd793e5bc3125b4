import type {MentionCandidate} from '@hanzo-dev/sdk'

import type {McpConnection} from './connection.js'

/**
 * What an `@` mention may become: `server:` for each connected server with resources, then,
 * after `server:`, its resources (`server:uri`, labelled by name) and its templates.
 */
export async function mentionCandidates(
  withResources: readonly McpConnection[],
  prefix: string,
): Promise<MentionCandidate[]> {
  const colon = prefix.indexOf(':')
  if (colon === -1)
    return withResources
      .filter((c) => `${c.name}:`.startsWith(prefix))
      .map((c) => ({label: 'MCP server', value: `${c.name}:`}))
  const connection = withResources.find((c) => c.name === prefix.slice(0, colon))
  if (!connection) return []
  const [resources, templates] = await Promise.all([connection.resources(), connection.resourceTemplates()])
  const server = connection.name
  return [
    ...resources.map((r) => ({label: r.name, value: `${server}:${r.uri}`})),
    ...templates.map((t) => ({label: `${t.name} (template)`, value: `${server}:${t.uriTemplate}`})),
  ].filter((c) => c.value.startsWith(prefix))
}
