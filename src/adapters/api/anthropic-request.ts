import type {Message} from '../../core/agent/types.js'
import type {ImagePart} from '@hanzo-dev/sdk'

import {withCacheBreakpoints} from './anthropic-cache.js'
import type {ContentBlock, ImageBlock, MessageParam, MessagesRequest, ToolResultBlock} from './anthropic-types.js'
import type {RequestBuilder} from './wire-api.js'

/**
 * The reply limit when the caller sets none: `max_tokens` is required, and every current Claude
 * model allows this many output tokens.
 */
export const DEFAULT_MAX_TOKENS = 8192

export interface AnthropicRequestOptions {
  /** Extended thinking with this many tokens of budget; off when absent. */
  thinkingBudgetTokens?: number
  /** Prompt-cache breakpoints (`cache_control`); default on. Off for a compatible server that refuses them. */
  promptCache?: boolean
}

/**
 * Our conversation as a streaming `POST /v1/messages` body. System messages (wherever they
 * are: compaction may add one) become the `system` prompt; the rest alternate user and
 * assistant, so consecutive tool results, and a user message after them, share one user
 * message as the API requires. The thinking budget is spent from `max_tokens`, so the default
 * limit grows by it. Prompt-cache breakpoints are placed by `withCacheBreakpoints`.
 */
export function anthropicRequest(config: AnthropicRequestOptions = {}): RequestBuilder<MessagesRequest> {
  const budget = config.thinkingBudgetTokens
  const cached = config.promptCache === false ? (request: MessagesRequest) => request : withCacheBreakpoints
  return (messages, tools, options) => {
    const system = messages
      .filter((message) => message.role === 'system')
      .map((message) => message.content)
      .join('\n\n')
    return cached({
      max_tokens: options.maxTokens ?? DEFAULT_MAX_TOKENS + (budget ?? 0),
      messages: alternating(messages),
      model: options.model,
      ...(system !== '' && {system}),
      ...(tools.length > 0 && {
        tools: tools.map((tool) => ({description: tool.description, input_schema: tool.inputSchema, name: tool.name})),
      }),
      ...(budget !== undefined && {thinking: {budget_tokens: budget, type: 'enabled' as const}}),
      stream: true,
    })
  }
}

function alternating(messages: readonly Message[]): MessageParam[] {
  const turns: MessageParam[] = []
  for (const message of messages) {
    if (message.role === 'system') continue
    const content = contentBlocks(message)
    // The API refuses a message without content: an empty reply says nothing worth sending back.
    if (content.length === 0) continue
    const role = message.role === 'assistant' ? 'assistant' : 'user'
    const last = turns.at(-1)
    if (last?.role === role) last.content.push(...content)
    else turns.push({content, role})
  }

  return turns
}

function contentBlocks(
  message: Exclude<Message, {role: 'system'}>,
): Array<ContentBlock | ToolResultBlock | ImageBlock> {
  switch (message.role) {
    case 'user': {
      const text = message.content === '' ? [] : [{text: message.content, type: 'text' as const}]
      return [...text, ...(message.images ?? []).map((image) => imageBlock(image))]
    }

    case 'assistant': {
      return [
        // Thinking goes back first and unchanged (its signature covers it), as the reply had it.
        ...(message.reasoning ?? []),
        ...(message.content === '' ? [] : [{text: message.content, type: 'text' as const}]),
        ...message.toolCalls.map((call) => ({
          id: call.id,
          input: call.input,
          name: call.name,
          type: 'tool_use' as const,
        })),
      ]
    }

    case 'tool': {
      return [
        {
          is_error: message.isError,
          tool_use_id: message.toolCallId,
          type: 'tool_result',
          ...(message.images
            ? {
                content: [
                  {text: message.content, type: 'text' as const},
                  ...message.images.map((image) => imageBlock(image)),
                ],
              }
            : message.content !== '' && {content: message.content}),
        },
      ]
    }
  }
}

function imageBlock(image: ImagePart): ImageBlock {
  return {source: {data: image.data, media_type: image.mediaType, type: 'base64'}, type: 'image'}
}
