import {isRecord} from '@hanzo-dev/sdk/settings'

import type {ModelError, ReasoningBlock, StopReason, StreamEvent} from '../../core/agent/types.js'
import type {SseFrame} from '../../core/protocol/sse-frame-buffer.js'
import type {AnthropicMessage, ContentBlock, MessageUsage} from './anthropic-types.js'
import {type ErrorContext, isErrorReply, replyError, streamEndedEarly, unexpectedReply} from './model-errors.js'
import {toolCallRequest} from './tool-call.js'
import {notJsonError, numberField, parseFrameData, type StreamDecoder, stringField, usageEvent} from './wire-api.js'

/** A content block between its `content_block_start` and `content_block_stop`. */
interface OpenBlock {
  block: ContentBlock
  /** A tool call's `input_json_delta`s so far. */
  json: string
}

const USAGE_FIELDS = [
  'input_tokens',
  'output_tokens',
  'cache_creation_input_tokens',
  'cache_read_input_tokens',
] as const

/**
 * Anthropic's Messages stream: `message_start` (the message, its input usage), then per content
 * block `content_block_start`, its `content_block_delta`s (`text_delta`, `input_json_delta`,
 * `thinking_delta`, `signature_delta`) and `content_block_stop`; `message_delta` with the stop
 * reason and the cumulative usage; `message_stop`. `ping` and event types added later are
 * skipped; an `error` event ends the reply.
 *
 * Text streams as it comes; a tool call is emitted when its block stops. Thinking never reaches
 * the text: it is kept (signed) in the `reasoning` of `message_stop`, for the history to send
 * back, and in `raw`, the message assembled as a request without `stream: true` would get it.
 * Blocks of kinds we never ask for (server tools) are left out.
 */
export class AnthropicStreamDecoder implements StreamDecoder {
  private message: Record<string, unknown> = {}
  private readonly open = new Map<number, OpenBlock>()
  private readonly closed = new Map<number, ContentBlock>()
  private readonly usage: MessageUsage = {}
  private stopReason: string | null = null
  private stopSequence: string | null = null
  private done = false

  constructor(private readonly context: ErrorContext) {}

  frame(frame: SseFrame): StreamEvent[] {
    if (this.done) return []
    const event = parseFrameData(frame)
    if (!isRecord(event)) return this.fail(notJsonError(frame, this.context))
    const type = stringField(event, 'type') ?? frame.event
    if (type === 'error' || isErrorReply(event)) return this.fail(replyError(event, this.context))
    const index = numberField(event, 'index') ?? 0
    switch (type) {
      case 'message_start': {
        if (isRecord(event.message)) this.message = event.message
        this.addUsage(this.message.usage)
        return []
      }

      case 'content_block_start': {
        const block = contentBlock(event.content_block)
        if (!block) return []
        this.open.set(index, {block, json: ''})
        return block.type === 'text' && block.text !== '' ? [{text: block.text, type: 'content_delta'}] : []
      }

      case 'content_block_delta': {
        return this.addDelta(this.open.get(index), event.delta)
      }

      case 'content_block_stop': {
        return this.closeBlock(index)
      }

      case 'message_delta': {
        this.stopReason = stringField(event.delta, 'stop_reason') ?? this.stopReason
        this.stopSequence = stringField(event.delta, 'stop_sequence') ?? this.stopSequence
        this.addUsage(event.usage)
        return []
      }

      case 'message_stop': {
        return this.close()
      }

      default: {
        return []
      }
    }
  }

  end(): StreamEvent[] {
    return this.done ? [] : this.fail(streamEndedEarly(this.context))
  }

  private addDelta(open: OpenBlock | undefined, delta: unknown): StreamEvent[] {
    if (!open) return []
    const {block} = open
    const type = stringField(delta, 'type')
    if (type === 'text_delta' && block.type === 'text') {
      const text = stringField(delta, 'text') ?? ''
      block.text += text
      return text === '' ? [] : [{text, type: 'content_delta'}]
    }

    if (type === 'input_json_delta') open.json += stringField(delta, 'partial_json') ?? ''
    else if (type === 'thinking_delta' && block.type === 'thinking')
      block.thinking += stringField(delta, 'thinking') ?? ''
    else if (type === 'signature_delta' && block.type === 'thinking')
      block.signature = stringField(delta, 'signature') ?? block.signature
    return []
  }

  private closeBlock(index: number): StreamEvent[] {
    const open = this.open.get(index)
    if (!open) return []
    this.open.delete(index)
    const {block} = open
    this.closed.set(index, block)
    if (block.type !== 'tool_use') return []
    // A call without arguments sends no delta: its start's `input` ({}) stands.
    const call = toolCallRequest(block.id, block.name, open.json || JSON.stringify(block.input))
    block.input = call.input
    return [{call, type: 'tool_use'}]
  }

  /** At `message_stop`; blocks a sloppy proxy never stopped are completed first. */
  private close(): StreamEvent[] {
    const events = [...this.open.keys()].sort((a, b) => a - b).flatMap((index) => this.closeBlock(index))
    const message: AnthropicMessage = {
      content: [...this.closed.entries()].sort(([a], [b]) => a - b).map(([, block]) => block),
      id: stringField(this.message, 'id') ?? '',
      model: stringField(this.message, 'model') ?? '',
      role: 'assistant',
      stop_reason: this.stopReason,
      stop_sequence: this.stopSequence,
      type: 'message',
      usage: this.usage,
    }
    this.done = true
    return [...events, ...closingEvents(message, message.content, message.stop_reason, message.usage)]
  }

  /** `message_delta` counts are cumulative: each replaces what `message_start` said. */
  private addUsage(usage: unknown): void {
    for (const field of USAGE_FIELDS) {
      const count = numberField(usage, field)
      if (count !== undefined) this.usage[field] = count
    }
  }

  private fail(error: ModelError): StreamEvent[] {
    this.done = true
    return [{error, type: 'error'}]
  }
}

/** The events of a whole message: what a server that ignores `stream: true` sends. */
export function messageEvents(body: unknown, context: ErrorContext): StreamEvent[] {
  if (!isRecord(body) || body.type !== 'message' || !Array.isArray(body.content)) {
    return [{error: unexpectedReply('a JSON body that is not a message', context), type: 'error'}]
  }

  const blocks = body.content.map((part) => contentBlock(part)).filter((block) => block !== undefined)
  const events = blocks.flatMap((block): StreamEvent[] => {
    if (block.type === 'text') return block.text === '' ? [] : [{text: block.text, type: 'content_delta'}]
    if (block.type === 'tool_use')
      return [{call: toolCallRequest(block.id, block.name, JSON.stringify(block.input)), type: 'tool_use'}]
    return []
  })
  return [...events, ...closingEvents(body, blocks, stringField(body, 'stop_reason') ?? null, body.usage)]
}

/** A content block from the network, in the shape the history sends back; undefined for kinds we never ask for. */
function contentBlock(part: unknown): ContentBlock | undefined {
  switch (stringField(part, 'type')) {
    case 'text': {
      return {text: stringField(part, 'text') ?? '', type: 'text'}
    }

    case 'tool_use': {
      const input = isRecord(part) && isRecord(part.input) ? part.input : {}
      return {id: stringField(part, 'id') ?? '', input, name: stringField(part, 'name') ?? '', type: 'tool_use'}
    }

    case 'thinking': {
      return {
        signature: stringField(part, 'signature') ?? '',
        thinking: stringField(part, 'thinking') ?? '',
        type: 'thinking',
      }
    }

    case 'redacted_thinking': {
      return {data: stringField(part, 'data') ?? '', type: 'redacted_thinking'}
    }

    default: {
      return undefined
    }
  }
}

function closingEvents(
  raw: unknown,
  blocks: readonly ContentBlock[],
  reason: string | null,
  usage: unknown,
): StreamEvent[] {
  const reasoning = blocks.filter(
    (block): block is ReasoningBlock => block.type === 'thinking' || block.type === 'redacted_thinking',
  )
  const hadCalls = blocks.some((block) => block.type === 'tool_use')
  return [
    ...usageEvents(usage),
    {raw, stopReason: stopReason(reason, hadCalls), type: 'message_stop', ...(reasoning.length > 0 && {reasoning})},
  ]
}

/**
 * Input as OpenAI counts it, cached tokens included: Anthropic's `input_tokens` leaves out what
 * was written to or read from the prompt cache, and the context window holds all of it.
 */
function usageEvents(usage: unknown): StreamEvent[] {
  const write = numberField(usage, 'cache_creation_input_tokens')
  const read = numberField(usage, 'cache_read_input_tokens')
  const counts = [numberField(usage, 'input_tokens'), write, read]
  const input = counts.every((count) => count === undefined)
    ? undefined
    : counts.reduce<number>((sum, count) => sum + (count ?? 0), 0)
  return usageEvent(input, numberField(usage, 'output_tokens'), {read, write})
}

/** `max_tokens` wins (a call cut short is not a call to run); tool calls mean `tool_use` whatever the reason says. */
function stopReason(reason: string | null, hadCalls: boolean): StopReason {
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'max_tokens'
  if (hadCalls || reason === 'tool_use') return 'tool_use'
  if (reason === null || reason === 'end_turn' || reason === 'stop_sequence') return 'end_turn'
  return 'other'
}
