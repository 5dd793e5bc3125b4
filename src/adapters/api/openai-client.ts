import type {IncomingMessage} from 'node:http'
import {text} from 'node:stream/consumers'

import {redactUrl} from '@hanzo-dev/sdk/settings'

import type {ApiClient, Message, ModelError, ModelToolSpec, SendOptions, StreamEvent} from '../../core/agent/types.js'
import {chatCompletions} from './chat-completions.js'
import {decodeStream} from './decode-stream.js'
import {type Answer, createHttpTransport, type HttpTransport, release} from './http-transport.js'
import {
  connectionError,
  type ErrorContext,
  httpStatusError,
  invalidBaseUrl,
  isErrorReply,
  replyError,
  timeoutError,
  unexpectedFailure,
  unexpectedReply,
} from './model-errors.js'
import {responses} from './responses.js'
import type {WireApi} from './wire-api.js'

export interface OpenAIClientOptions {
  /** The `/v1` base URL, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseURL: string
  /** Absent or empty for servers without authentication (Ollama, llama.cpp): then no Authorization header is sent. */
  apiKey?: string
  api: 'chat_completions' | 'responses'
  /** Retries of a 408, 409, 429 or 5xx answer and of a failed connection, with exponential backoff (or the server's retry-after); default 2. */
  maxRetries?: number
  defaultHeaders?: Record<string, string>
  /** How long each attempt may wait for the server to start answering; a stream that has started runs on. Default 10 minutes. */
  timeoutMs?: number
}

/**
 * An `ApiClient` for any OpenAI-compatible server, over chat completions or the Responses API.
 * Every failure is yielded as one `error` event carrying a `ModelError` (never thrown, never the
 * API key in its message); `options.signal` ends the stream quietly.
 *
 * `http-transport` sends, authenticates, retries and times out each request; the body is read
 * with our `SseFrameBuffer` (HIP-301 §3), which also lets a 200 JSON body (an error object, or
 * a whole reply from a server that ignores `stream: true`) be told apart from a stream.
 */
export function createOpenAIClient(options: OpenAIClientOptions): ApiClient {
  const wire = options.api === 'responses' ? responses : chatCompletions
  const context: ErrorContext = {endpoint: redactUrl(options.baseURL), secret: options.apiKey || undefined}
  const transport = createHttpTransport(options)
  return {
    sendMessage: (messages, tools, sendOptions) => streamReply({context, options, transport, wire}, {messages, sendOptions, tools}),
  }
}

/** What every call of one client shares. */
interface Client {
  context: ErrorContext
  options: OpenAIClientOptions
  transport: HttpTransport
  wire: WireApi
}

interface Call {
  messages: readonly Message[]
  tools: readonly ModelToolSpec[]
  sendOptions: SendOptions
}

async function* streamReply(client: Client, call: Call): AsyncGenerator<StreamEvent> {
  const {context, options, wire} = client
  const {signal} = call.sendOptions
  try {
    if (signal?.aborted) return
    const problem = baseUrlProblem(options.baseURL)
    if (problem) {
      yield {error: invalidBaseUrl(problem, context), type: 'error'}
      return
    }

    const url = new URL(options.baseURL.replace(/\/$/, '') + wire.path)
    const body = JSON.stringify(wire.request(call.messages, call.tools, call.sendOptions))
    const answer = await client.transport.post(url, body, signal)
    if (answer.kind === 'aborted') return
    if (answer.kind !== 'response') {
      yield {error: failure(answer, context, options.timeoutMs), type: 'error'}
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

function failure(answer: Exclude<Answer, {kind: 'response' | 'aborted'}>, context: ErrorContext, timeoutMs: number | undefined): ModelError {
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

function baseUrlProblem(baseURL: string): string | undefined {
  let url: URL
  try {
    url = new URL(baseURL)
  } catch {
    return 'is not a URL'
  }

  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'is not an http(s) URL'
  // node:http would send them as Basic credentials, beside or instead of the key, which belongs in api_key / HANZO_API_KEY.
  if (url.username || url.password) return 'contains a user name or password, which cannot be sent that way; put the key in api_key or HANZO_API_KEY'
  return undefined
}

/** A stream, or a whole JSON body (an error object, or the reply of a server that ignores `stream: true`). */
async function replyEvents(response: IncomingMessage, wire: WireApi, context: ErrorContext): Promise<Iterable<StreamEvent> | AsyncIterable<StreamEvent>> {
  const mediaType = response.headers['content-type']?.split(';')[0]?.trim().toLowerCase() ?? ''
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) return jsonReply(await text(response), wire, context)
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
