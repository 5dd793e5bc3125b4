import type {AgentSession, OfferedTool, ToolVerdict} from '@hanzo-dev/sdk'
import type {ImagePart} from '@hanzo-dev/sdk/tools'
import type {Server} from '@modelcontextprotocol/sdk/server/index.js'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'

/** Where every tools/call answer carries the policy's verdict, as the hanzo MCP server does. */
export const VERDICT_META_KEY = 'hanzo-dev/verdict'

const SERVER_INFO = {name: 'hanzo-dev', title: 'hanzo-dev tools', version: '0.1.0'}

/**
 * An MCP server (one per client connection) over the session's tools. A call is put to the
 * permission policy first: a deny is refused before anything runs (no process exists); an ask
 * runs, because a server cannot ask the person and the client's own permission prompt stood
 * between its model and the call. Everything then runs through the session's pipeline (hooks,
 * sandbox, audit, truncation), and every answer says what the policy said.
 */
export async function createToolServer(session: AgentSession, tools: readonly OfferedTool[]): Promise<Server> {
  const [{Server}, {CallToolRequestSchema, CompleteRequestSchema, ListToolsRequestSchema}, resources, prompts] =
    await Promise.all([
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/types.js'),
      import('./workspace-resources.js'),
      import('./custom-prompts.js'),
    ])
  // The SDK answers logging/setLevel and drops messages below the client's level.
  const server = new Server(SERVER_INFO, {
    capabilities: {logging: {}, tools: {}, ...resources.RESOURCE_CAPABILITIES, ...prompts.PROMPT_CAPABILITIES},
  })
  const completeTemplate = await resources.registerWorkspaceResources(server, session)
  const completePrompt = await prompts.registerCustomPrompts(server, session)
  server.setRequestHandler(CompleteRequestSchema, ({params: {argument, ref}}) =>
    (ref.type === 'ref/prompt' ? completePrompt(ref.name) : completeTemplate(ref.uri))(argument),
  )
  const listed = tools.map((tool) => ({
    annotations: {destructiveHint: tool.mutating, readOnlyHint: !tool.mutating},
    description: tool.description,
    inputSchema: tool.inputSchema as {type: 'object'},
    name: tool.name,
  }))
  server.setRequestHandler(ListToolsRequestSchema, () => ({tools: listed}))
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const {arguments: input = {}, name} = request.params
    if (!tools.some((tool) => tool.name === name)) {
      return {
        content: [
          {text: `Unknown tool "${name}". The tools are: ${tools.map((t) => t.name).join(', ')}`, type: 'text'},
        ],
        isError: true,
      }
    }

    const verdict = await session.verdict(name, input)
    // What serve logs is each call's verdict: the client's log shows what the policy let through.
    void server
      .sendLoggingMessage(
        {
          data: `${name}: ${verdict.decision}${verdict.reason ? ` (${verdict.reason})` : ''}`,
          level: verdict.decision === 'deny' ? 'warning' : 'info',
          logger: 'hanzo-dev',
        },
        extra.sessionId,
      )
      .catch(() => {})
    if (verdict.decision === 'deny')
      return answer(`Refused by hanzo-dev's permission policy: ${verdict.reason ?? 'denied'}`, true, verdict)
    const result = await session.callTool(name, input, {signal: extra.signal})
    return answer(
      result.is_error ? [result.error, result.output].filter(Boolean).join('\n') : result.output,
      result.is_error,
      verdict,
      result.images,
    )
  })
  return server
}

/** The text, then any images (fs_read of a picture) as MCP image content, for the client's model to see. */
function answer(text: string, isError: boolean, verdict: ToolVerdict, images: ImagePart[] = []): CallToolResult {
  const pictures = images.map(({data, mediaType}) => ({data, mimeType: mediaType, type: 'image' as const}))
  return {_meta: {[VERDICT_META_KEY]: verdict}, content: [{text, type: 'text'}, ...pictures], isError}
}
