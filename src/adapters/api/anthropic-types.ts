import type {JsonSchema} from '@hanzo-dev/sdk'

import type {ReasoningBlock} from '../../core/agent/types.js'

/*
 * The Anthropic Messages API shapes the client sends and keeps, written out here: only types
 * would come from `@anthropic-ai/sdk`, and it is no dependency of ours. Replies are read field
 * by field (`wire-api.ts` helpers), since proxies and gateways omit and null fields freely.
 */

export interface TextBlock {
  type: 'text'
  text: string
}

/** A prompt-cache breakpoint: the request up to and including the block it marks is cached. */
export interface CacheControl {
  cache_control?: {type: 'ephemeral'}
}

/** An image inline (base64), in a user message or a tool result. */
export interface ImageBlock {
  type: 'image'
  source: {type: 'base64'; media_type: string; data: string}
}

export interface ToolUseBlock {
  type: 'tool_use'
  id: string
  name: string
  input: Record<string, unknown>
}

export interface ToolResultBlock {
  type: 'tool_result'
  tool_use_id: string
  /** Absent for an empty result: the API refuses empty text. Blocks when the result has images. */
  content?: string | Array<TextBlock | ImageBlock>
  is_error: boolean
}

/** What a reply holds, in the shapes the history sends back. */
export type ContentBlock = TextBlock | ToolUseBlock | ReasoningBlock

export interface MessageParam {
  role: 'user' | 'assistant'
  content: Array<(ContentBlock | ToolResultBlock | ImageBlock) & CacheControl>
}

export interface MessagesRequest {
  model: string
  max_tokens: number
  /** Blocks when it carries a cache breakpoint. */
  system?: string | Array<TextBlock & CacheControl>
  messages: MessageParam[]
  tools?: Array<{name: string; description: string; input_schema: JsonSchema} & CacheControl>
  thinking?: {type: 'enabled'; budget_tokens: number}
  stream: true
}

export interface MessageUsage {
  input_tokens?: number
  output_tokens?: number
  cache_creation_input_tokens?: number | null
  cache_read_input_tokens?: number | null
}

/** A whole reply: what a request without `stream: true` gets, and what the stream decoder assembles. */
export interface AnthropicMessage {
  id: string
  type: 'message'
  role: 'assistant'
  model: string
  content: ContentBlock[]
  stop_reason: string | null
  stop_sequence: string | null
  usage: MessageUsage
}
