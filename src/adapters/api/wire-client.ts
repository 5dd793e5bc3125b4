import type {IncomingMessage} from 'node:http'
import {text} from 'node:stream/consumers'

import type {ApiClient, Message, ModelError, ModelToolSpec, SendOptions, StreamEvent} from '../../core/agent/types.js'
import {decodeStream} from './decode-stream.js'
import {type Answer, type HttpTransport, release} from './http-transport.js'
import {
  connectionError,
  type ErrorContext,
  invalidBaseUrl,
  httpStatusError,
  isErrorReply,
  replyError,
  timeoutError,
  unexpectedFailure,
  unexpectedReply,
} from './model-errors.js'
import type {WireApi} from './wire-api.js'

export interface WireClientOptions {
  /** Requests go to this URL joined with `wire.path`. */
  baseURL: string
  wire: WireApi
  /** Sends, authenticates, retries and times out each request. */
  transport: HttpTransport
  context: ErrorContext
  /** The transport's limit, to word a timeout. */
  timeoutMs?: number
}

/**
 * An `ApiClient` for one wire API over our http transport: the OpenAI client (chat completions,
 * Responses) and the Anthropic client differ only in their `WireApi` and headers. Every failure
 * is yielded as one `error` event carrying a `ModelError` (never thrown, never the API key in its
 * message); `options.signal` ends the stream quietly.
 *
 * The body is read with our `SseFrameBuffer` (HIP-301 §3), which also lets a 200 JSON body (an
 * error object, or a whole reply from a server that ignores `stream: true`) be told apart from a
 * stream.
 */
export function createWireClient(options: WireClientOptions): ApiClient {
  return {
    sendMessage: (messages, tools, sendOptions) => streamReply(options, {messages, sendOptions, tools}),
  }
}

interface Call {
  messages: readonly Message[]
  tools: readonly ModelToolSpec[]
  sendOptions: SendOptions
}

async function* streamReply(client: WireClientOptions, call: Call): AsyncGenerator<StreamEvent> {
  const {context, wire} = client
  const {signal} = call.sendOptions
  try {
    if (signal?.aborted) return
    const problem = baseUrlProblem(client.baseURL)
    if (problem) {
      yield {error: invalidBaseUrl(problem, context), type: 'error'}
      return
    }

    const url = new URL(client.baseURL.replace(/\/$/, '') + wire.path)
    const body = JSON.stringify(wire.request(call.messages, call.tools, call.sendOptions))
    const answer = await client.transport.post(url, body, signal)
    if (answer.kind === 'aborted') return
    if (answer.kind !== 'response') {
      yield {error: failure(answer, context, client.timeoutMs), type: 'error'}
      return
    }

    try {
      for await (const event of await replyEvents(answer.response, wire, context)) {
        if (signal?.aborted) return
        yield event
      }
    } finally {
      await release(answer.response)
    }
  } catch (error) {
    if (signal?.aborted) return
    yield {error: unexpectedFailure(error, context), type: 'error'}
  }
}

function failure(
  answer: Exclude<Answer, {kind: 'response' | 'aborted'}>,
  context: ErrorContext,
  timeoutMs: number | undefined,
): ModelError {
  switch (answer.kind) {
    case 'status': {
      return httpStatusError(answer.status, answer.body, context)
    }

    case 'timeout': {
      return timeoutError(timeoutMs, context)
    }

    case 'connection': {
      return connectionError(answer.cause, context)
    }
  }
}

/** What is wrong with a base URL no request can go to, for `invalidBaseUrl`; undefined when it is fine. */
export function baseUrlProblem(baseURL: string): string | undefined {
  let url: URL
  try {
    url = new URL(baseURL)
  } catch {
    return 'is not a URL'
  }

  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'is not an http(s) URL'
  // node:http would send them as Basic credentials, beside or instead of the key, which belongs in api_key / HANZO_API_KEY.
  if (url.username || url.password)
    return 'contains a user name or password, which cannot be sent that way; put the key in api_key or HANZO_API_KEY'
  return undefined
}

/** A stream, or a whole JSON body (an error object, or the reply of a server that ignores `stream: true`). */
async function replyEvents(
  response: IncomingMessage,
  wire: WireApi,
  context: ErrorContext,
): Promise<Iterable<StreamEvent> | AsyncIterable<StreamEvent>> {
  const mediaType = response.headers['content-type']?.split(';')[0]?.trim().toLowerCase() ?? ''
  if (mediaType === 'application/json' || mediaType.endsWith('+json'))
    return jsonReply(await text(response), wire, context)
  // A web page, not an API: base_url most likely lacks its /v1 or names the wrong server.
  if (mediaType === 'text/html') return [{error: unexpectedReply('an HTML page', context), type: 'error'}]
  // Not every server labels its stream text/event-stream: anything else is read as one. The
  // reader stops at the reply's final event without destroying the body: `release` drains it.
  return decodeStream(response.iterator({destroyOnReturn: false}), wire.streamDecoder(context))
}

function jsonReply(json: string, wire: WireApi, context: ErrorContext): StreamEvent[] {
  let body: unknown
  try {
    body = JSON.parse(json)
  } catch {
    return [{error: unexpectedReply('a JSON content type with a body that does not parse', context), type: 'error'}]
  }

  return isErrorReply(body) ? [{error: replyError(body, context), type: 'error'}] : wire.replyEvents(body, context)
}
