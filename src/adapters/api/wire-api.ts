import {isRecord} from '@hanzo-dev/sdk/settings'

import type {Message, ModelError, ModelToolSpec, SendOptions, StreamEvent} from '../../core/agent/types.js'
import type {SseFrame} from '../../core/protocol/sse-frame-buffer.js'
import {type ErrorContext, unexpectedReply} from './model-errors.js'

/**
 * One wire API (chat completions, Responses, Anthropic Messages) as the client speaks it: the
 * request it sends and how it reads the answer. The fake model's replay client reads its scripted
 * streams through the same decoders, so both paths give the same events.
 */
export interface WireApi {
  /** Where the request goes, under the base URL. */
  path: string
  /** The streaming request's JSON body. */
  request: RequestBuilder<object>
  streamDecoder(context: ErrorContext): StreamDecoder
  /** The events of a whole JSON reply: what a server that ignores `stream: true` sends. */
  replyEvents(body: unknown, context: ErrorContext): StreamEvent[]
}

/** Our conversation as one API's request body. */
export type RequestBuilder<Body> = (
  messages: readonly Message[],
  tools: readonly ModelToolSpec[],
  options: SendOptions,
) => Body

/** Reads one streamed reply, frame by frame. */
export interface StreamDecoder {
  /** The events this frame completes. After a `message_stop` or an `error`, the reply is over. */
  frame(frame: SseFrame): StreamEvent[]
  /** Called when the body ends: the closing events, or an error when the reply was cut short. */
  end(): StreamEvent[]
}

/** True for the events after which a stream has nothing more to say. */
export function isFinal(event: StreamEvent): boolean {
  return event.type === 'message_stop' || event.type === 'error'
}

/** A string field of a JSON value from the network: compatible servers omit and null fields freely. */
export function stringField(value: unknown, key: string): string | undefined {
  const field = isRecord(value) ? value[key] : undefined
  return typeof field === 'string' ? field : undefined
}

/** A number field of a JSON value from the network. */
export function numberField(value: unknown, key: string): number | undefined {
  const field = isRecord(value) ? value[key] : undefined
  return typeof field === 'number' && Number.isFinite(field) ? field : undefined
}

/** An array field of a JSON value from the network (`[]` when absent or null). */
export function arrayField(value: unknown, key: string): unknown[] {
  const field = isRecord(value) ? value[key] : undefined
  return Array.isArray(field) ? field : []
}

/** The JSON in an SSE frame's data, or undefined when it is not JSON. */
export function parseFrameData(frame: SseFrame): unknown {
  try {
    return JSON.parse(frame.data) as unknown
  } catch {
    return undefined
  }
}

/** The failure for a frame whose data is not the JSON object the API sends. */
export function notJsonError(frame: SseFrame, context: ErrorContext): ModelError {
  return unexpectedReply(
    `a stream event that is not a JSON object (${JSON.stringify(frame.data.slice(0, 80))})`,
    context,
  )
}

/** The usage event, when the server reported either count; cached counts only when above zero. */
export function usageEvent(
  inputTokens: number | undefined,
  outputTokens: number | undefined,
  cached: {read?: number; write?: number} = {},
): StreamEvent[] {
  if (inputTokens === undefined && outputTokens === undefined) return []
  const usage = {
    inputTokens: inputTokens ?? 0,
    outputTokens: outputTokens ?? 0,
    ...(cached.read ? {cacheReadTokens: cached.read} : {}),
    ...(cached.write ? {cacheWriteTokens: cached.write} : {}),
  }
  return [{type: 'usage', usage}]
}
