import type {AgentSession, HostContext, Message, Prompter, SamplingAnswer, SamplingRequest} from '@hanzo-dev/sdk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import type {PermissionGate} from '../../core/permissions/index.js'

/** The permission rule's tool name: `allow: ["mcp_sampling(myserver)"]` lets that server ask the model unasked. */
export const SAMPLING_RULE = 'mcp_sampling'

/** How much of a server's prompt the permission question quotes. */
const QUOTED_CHARS = 200

/**
 * What a session offers its plugins for an MCP server's requests to the client
 * (HostContext.elicit and sample): questions go to whoever answers the session's permission
 * questions, when it can (the chat, an app server's client); the model is asked on the side, as
 * `/commit` asks it, once the rules or the user allow that server.
 */
export function clientRequests(options: {
  prompter?: Prompter
  /** The session and its permission gate, once opened: a server's tools are listed before either is. */
  opened: () => {session?: AgentSession; permissions?: PermissionGate}
}): Pick<HostContext, 'elicit' | 'sample'> {
  const {prompter} = options
  return {
    ...(prompter?.elicit ? {elicit: (request) => prompter.elicit!(request)} : {}),
    sample: (request) => sample(request, options.opened),
  }
}

async function sample(
  request: SamplingRequest,
  opened: () => {session?: AgentSession; permissions?: PermissionGate},
): Promise<SamplingAnswer> {
  const {permissions, session} = opened()
  if (!session || !permissions) throw new Error('the session is not open yet')
  const last = request.messages.at(-1)
  if (last?.role !== 'user') throw new Error('the conversation must end with a user message')
  const outcome = await permissions.check({
    input: {prompt: last.text.slice(0, QUOTED_CHARS), server: request.server},
    kind: 'other',
    mutating: true,
    sessionId: session.id,
    subject: {kind: 'name', name: request.server},
    title: `MCP server ${request.server} asks the model: ${oneLine(last.text).slice(0, QUOTED_CHARS)}`,
    toolName: SAMPLING_RULE,
  })
  if (!outcome.allowed) throw new Error(outcome.reason)
  const child = session.child({
    kind: 'sampling',
    maxOutputTokens: request.maxTokens,
    maxTurns: 1,
    record: false,
    tools: 'none',
    ...(request.systemPrompt ? {systemPrompt: request.systemPrompt} : {}),
  })
  try {
    const history: Message[] = request.messages
      .slice(0, -1)
      .map((m) =>
        m.role === 'user' ? {content: m.text, role: 'user'} : {content: m.text, role: 'assistant', toolCalls: []},
      )
    const result = await child.run(last.text, {history})
    return {
      model: session.model,
      stopReason: result.stop === 'max_tokens' ? 'maxTokens' : 'endTurn',
      text: result.finalOutput,
    }
  } finally {
    await child.close()
  }
}
