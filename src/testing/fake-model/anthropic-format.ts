import {isRecord} from '@hanzo-dev/sdk/settings'

import {contentText, emptyView, type RequestView} from './request-view.js'
import type {ScriptErrorObject} from './script.js'
import type {Reply} from './script-cursor.js'
import {deltas, type FakeWireFormat, sse} from './wire-format.js'

/** The error type Anthropic sends with each status; other 4xx are `invalid_request_error`, other 5xx `api_error`. */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
}

type Block =
  | {type: 'thinking'; thinking: string; signature: string}
  | {type: 'text'; text: string}
  /** `arguments` as scripted: the stream sends them verbatim, invalid JSON included. */
  | {type: 'tool_use'; id: string; name: string; input: Record<string, unknown>; arguments: string}

/**
 * Anthropic's Messages API (`POST /v1/messages`): `message_start`, per content block
 * `content_block_start`, its deltas and `content_block_stop` (a `ping` after the first start, as
 * the API sends one), `message_delta` with the stop reason and the output usage, `message_stop`;
 * every event named in `event:` and in `type`. A leading `<think>...</think>` in the scripted text
 * becomes a thinking block with a fake signature, so one script gives the same visible reply in
 * every API. A `stream_error` sends the deltas without stopping the blocks, then an `error` event.
 * Errors are `{"type": "error", "error": {"type", "message"}}`, typed by status as the API does.
 */
export const anthropicFormat: FakeWireFormat = {
  errorBody(error, status) {
    return {error: {message: error.message, type: errorType(error, status)}, type: 'error'}
  },

  json(reply) {
    const content = blocks(reply).map((block) =>
      block.type === 'tool_use' ? {id: block.id, input: block.input, name: block.name, type: block.type} : block,
    )
    return message(reply, content, stopReason(reply), reply.usage)
  },

  stream(reply) {
    const event = (type: string, fields: Record<string, unknown> = {}) => sse({type, ...fields}, type)
    const usage = {...reply.usage, output_tokens: Math.min(1, reply.usage.output_tokens)}
    const events = [event('message_start', {message: message(reply, [], null, usage)})]
    blocks(reply).forEach((block, index) => {
      const delta = (fields: Record<string, unknown>) => event('content_block_delta', {delta: fields, index})
      const start = (contentBlock: Record<string, unknown>) => {
        events.push(event('content_block_start', {content_block: contentBlock, index}))
        if (index === 0) events.push(event('ping'))
      }

      if (block.type === 'thinking') {
        start({signature: '', thinking: '', type: 'thinking'})
        events.push(
          ...deltas(block.thinking, reply.chunkSize).map((thinking) => delta({thinking, type: 'thinking_delta'})),
          delta({signature: block.signature, type: 'signature_delta'}),
        )
      } else if (block.type === 'text') {
        start({text: '', type: 'text'})
        events.push(...deltas(block.text, reply.chunkSize).map((text) => delta({text, type: 'text_delta'})))
      } else {
        start({id: block.id, input: {}, name: block.name, type: 'tool_use'})
        events.push(
          ...deltas(block.arguments, reply.chunkSize).map((json) =>
            delta({partial_json: json, type: 'input_json_delta'}),
          ),
        )
      }

      if (!reply.streamError) events.push(event('content_block_stop', {index}))
    })
    if (reply.streamError) return [...events, sse(anthropicFormat.errorBody(reply.streamError), 'error')]
    events.push(
      event('message_delta', {
        delta: {stop_reason: stopReason(reply), stop_sequence: null},
        usage: {output_tokens: reply.usage.output_tokens},
      }),
      event('message_stop'),
    )
    return events
  },

  view(request) {
    const view = emptyView()
    const system = contentText(request.system)
    if (system !== '') view.system.push(system)
    view.textLength += system.length
    const names = new Map<string, string>()
    for (const entry of Array.isArray(request.messages) ? request.messages : []) {
      if (isRecord(entry)) readMessage(entry, view, names)
    }

    for (const tool of Array.isArray(request.tools) ? request.tools : []) {
      if (isRecord(tool) && typeof tool.name === 'string') view.tools.push(tool.name)
    }

    return view
  },
}

/** A message's text blocks (a user message of only tool results is no user message), tool calls and results. */
function readMessage(entry: Record<string, unknown>, view: RequestView, names: Map<string, string>): void {
  const parts =
    typeof entry.content === 'string'
      ? [{text: entry.content, type: 'text'}]
      : Array.isArray(entry.content)
        ? entry.content
        : []
  const texts: string[] = []
  for (const part of parts) {
    if (!isRecord(part)) continue
    if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text)
    if (part.type === 'tool_use' && typeof part.id === 'string' && typeof part.name === 'string') {
      names.set(part.id, part.name)
      view.toolCalls.push(part.id)
      view.textLength += JSON.stringify(part.input ?? {}).length
    }

    if (part.type === 'tool_result') {
      const callId = typeof part.tool_use_id === 'string' ? part.tool_use_id : ''
      const content = contentText(part.content)
      view.textLength += content.length
      view.toolResults.push({callId, content, name: names.get(callId)})
    }
  }

  const text = texts.join('')
  view.textLength += text.length
  if (entry.role === 'user' && texts.length > 0) view.users.push(text)
}

/** Thinking (from a leading `<think>` block of the text; unclosed, it is all thinking), text, tool calls. */
function blocks(reply: Reply): Block[] {
  const think = /^\s*<think>([\s\S]*?)(?:<\/think>\s*|$)/.exec(reply.text)
  const text = think ? reply.text.slice(think[0].length) : reply.text
  const result: Block[] = []
  if (think)
    result.push({
      signature: Buffer.from(`fake-signature-${reply.turn}`).toString('base64'),
      thinking: think[1] ?? '',
      type: 'thinking',
    })
  if (text !== '' || reply.toolCalls.length === 0) result.push({text, type: 'text'})
  for (const call of reply.toolCalls)
    result.push({
      arguments: call.arguments,
      id: call.id,
      input: objectOf(call.arguments),
      name: call.name,
      type: 'tool_use',
    })
  return result
}

/** A tool call's input; a script's invalid JSON (which only a stream can carry) as `{}`. */
function objectOf(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json)
    return isRecord(value) ? value : {}
  } catch {
    return {}
  }
}

function message(reply: Reply, content: unknown[], stop: string | null, usage: Reply['usage']) {
  return {
    content,
    id: `msg_fake_${reply.turn}`,
    model: reply.model,
    role: 'assistant',
    stop_reason: stop,
    stop_sequence: null,
    type: 'message',
    // Anthropic's input_tokens leaves out what the cache served and what it stored.
    usage: {
      cache_creation_input_tokens: usage.cache_write_tokens,
      cache_read_input_tokens: usage.cache_read_tokens,
      input_tokens: usage.input_tokens - usage.cache_read_tokens - usage.cache_write_tokens,
      output_tokens: usage.output_tokens,
    },
  }
}

function stopReason(reply: Reply): string {
  if (reply.truncated) return 'max_tokens'
  return reply.toolCalls.length > 0 ? 'tool_use' : 'end_turn'
}

/** By status as the API types its errors; a 200 error body or a stream error keeps the script's type. */
function errorType(error: ScriptErrorObject, status: number | undefined): string {
  if (status === undefined) return error.type ?? 'api_error'
  return ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error')
}
