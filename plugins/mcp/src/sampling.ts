import type {HostContext} from '@hanzo-dev/sdk'
import type {CreateMessageRequest, CreateMessageResult} from '@modelcontextprotocol/sdk/types.js'

import {untilAborted} from './call-signal.js'

/** MCP's code for a sampling request the user (or a rule) refused. */
const USER_REJECTED = -1

/**
 * A server's `sampling/createMessage`, answered by the session's model once the host allows it
 * (`mcp_sampling(<server>)`). Only text is sent on: a part of another kind is refused rather
 * than silently dropped from what the server asked.
 */
export async function answerSampling(
  server: string,
  params: CreateMessageRequest['params'],
  sample: NonNullable<HostContext['sample']>,
  signal?: AbortSignal,
): Promise<CreateMessageResult> {
  const {ErrorCode, McpError} = await import('@modelcontextprotocol/sdk/types.js')
  const messages = params.messages.map((message) => {
    const parts = Array.isArray(message.content) ? message.content : [message.content]
    const other = parts.find((part) => part.type !== 'text')
    if (other)
      throw new McpError(ErrorCode.InvalidParams, `hanzo-dev sends only text to the model, not ${other.type} content`)
    return {role: message.role, text: parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n')}
  })
  try {
    const answer = await untilAborted(
      sample({
        maxTokens: params.maxTokens,
        messages,
        server,
        signal,
        ...(params.systemPrompt ? {systemPrompt: params.systemPrompt} : {}),
      }),
      signal,
    )
    return {
      content: {text: answer.text, type: 'text'},
      model: answer.model,
      role: 'assistant',
      stopReason: answer.stopReason,
    }
  } catch (error) {
    throw new McpError(
      USER_REJECTED,
      `hanzo-dev did not sample: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}
