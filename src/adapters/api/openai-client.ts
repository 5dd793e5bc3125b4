import {redactUrl} from '@hanzo-dev/sdk/settings'

import type {ApiClient, Message, ModelError, ModelToolSpec, SendOptions, StreamEvent} from '../../core/agent/types.js'
import {chatCompletions} from './chat-completions.js'
import {decodeStream} from './decode-stream.js'
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
  /** Retries of a 408, 409, 429 or 5xx answer and of a failed connection, with the openai client's backoff (or the server's retry-after). */
  maxRetries?: number
  defaultHeaders?: Record<string, string>
  /** How long each attempt may wait for the server to start answering; a stream that has started runs on. */
  timeoutMs?: number
}

type OpenAIModule = typeof import('openai')

let openai: Promise<OpenAIModule> | undefined

/** The openai package is imported on the first request only: the CLI's start-up never pays for it. */
function loadOpenAI(): Promise<OpenAIModule> {
  openai ??= import('openai')
  return openai
}

/**
 * An `ApiClient` for any OpenAI-compatible server, over chat completions or the Responses API.
 * Every failure is yielded as one `error` event carrying a `ModelError` (never thrown, never an
 * openai class, never the API key in its message); `options.signal` ends the stream quietly.
 *
 * The openai client sends the request, authenticates, retries and times out; the body is read
 * with our `SseFrameBuffer` (HIP-301 §3), which also lets a 200 JSON body (an error object, or
 * a whole reply from a server that ignores `stream: true`) be told apart from a stream.
 */
export function createOpenAIClient(options: OpenAIClientOptions): ApiClient {
  const wire = options.api === 'responses' ? responses : chatCompletions
  const context: ErrorContext = {endpoint: redactUrl(options.baseURL), secret: options.apiKey || undefined}
  return {
    sendMessage: (messages, tools, sendOptions) => streamReply(options, wire, context, {messages, sendOptions, tools}),
  }
}

/** A non-2xx answer as it came, kept for its body (see streamReply). */
interface FailedAnswer {
  status: number
  body: string
}

interface Call {
  messages: readonly Message[]
  tools: readonly ModelToolSpec[]
  sendOptions: SendOptions
}

async function* streamReply(options: OpenAIClientOptions, wire: WireApi, context: ErrorContext, call: Call): AsyncGenerator<StreamEvent> {
  const {signal} = call.sendOptions
  let sdk: OpenAIModule | undefined
  // The openai client keeps only `body.error` of a failed answer; the whole body is kept here
  // so that servers whose errors have another shape (vLLM, FastAPI, a proxy's text) still get
  // their own message through.
  let lastFailure: FailedAnswer | undefined
  try {
    if (signal?.aborted) return
    const problem = baseUrlProblem(options.baseURL)
    if (problem) {
      yield {error: invalidBaseUrl(problem, context), type: 'error'}
      return
    }

    sdk = await loadOpenAI()
    const client = newClient(sdk, options, (failure) => {
      lastFailure = failure
    })
    const response = await untilAborted(wire.send(client, call.messages, call.tools, call.sendOptions).asResponse(), signal)
    if (response === undefined) return
    const events = await replyEvents(response, wire, context)
    for await (const event of events) {
      if (signal?.aborted) return
      yield event
    }
  } catch (error) {
    if (signal?.aborted) return
    yield {error: toModelError(error, sdk, lastFailure, context, options.timeoutMs), type: 'error'}
  }
}

function newClient(sdk: OpenAIModule, options: OpenAIClientOptions, onFailure: (failure: FailedAnswer) => void) {
  return new sdk.OpenAI({
    apiKey: options.apiKey || 'no-key',
    baseURL: options.baseURL,
    defaultHeaders: {...options.defaultHeaders, ...(!options.apiKey && {Authorization: null})},
    async fetch(input, init) {
      const response = await fetch(input, init)
      if (!response.ok) onFailure({body: await response.clone().text(), status: response.status})
      return response
    },
    maxRetries: options.maxRetries ?? 2,
    // Not read from OPENAI_ORG_ID / OPENAI_PROJECT_ID: those belong to OpenAI, not to whatever server base_url names.
    organization: null,
    project: null,
    ...(options.timeoutMs !== undefined && {timeout: options.timeoutMs}),
  })
}

function baseUrlProblem(baseURL: string): string | undefined {
  let url: URL
  try {
    url = new URL(baseURL)
  } catch {
    return 'is not a URL'
  }

  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'is not an http(s) URL'
  // fetch refuses such URLs; the key belongs in api_key / HANZO_API_KEY.
  if (url.username || url.password) return 'contains a user name or password, which cannot be sent that way; put the key in api_key or HANZO_API_KEY'
  return undefined
}

/** A stream, or a whole JSON body (an error object, or the reply of a server that ignores `stream: true`). */
async function replyEvents(response: Response, wire: WireApi, context: ErrorContext): Promise<Iterable<StreamEvent> | AsyncIterable<StreamEvent>> {
  const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? ''
  if (mediaType === 'application/json' || mediaType.endsWith('+json')) return jsonReply(await response.text(), wire, context)
  if (mediaType === 'text/html') {
    // A web page, not an API: base_url most likely lacks its /v1 or names the wrong server.
    await response.body?.cancel()
    return [{error: unexpectedReply('an HTML page', context), type: 'error'}]
  }

  // Not every server labels its stream text/event-stream: anything else is read as one.
  return decodeStream(response.body ?? [], wire.streamDecoder(context))
}

function jsonReply(text: string, wire: WireApi, context: ErrorContext): StreamEvent[] {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return [{error: unexpectedReply('a JSON content type with a body that does not parse', context), type: 'error'}]
  }

  return isErrorReply(body) ? [{error: replyError(body, context), type: 'error'}] : wire.replyEvents(body, context)
}

/**
 * The openai client sleeps between retries without watching the signal: Ctrl-C during a
 * rate-limit backoff must end the call now, not after the wait. Undefined when aborted first.
 */
async function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (!signal) return promise
  let onAbort: (() => void) | undefined
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined)
    signal.addEventListener('abort', onAbort, {once: true})
  })
  // The request still settles after an abort (as APIUserAbortError): nobody is waiting for it.
  promise.catch(() => {})
  try {
    return await Promise.race([promise, aborted])
  } finally {
    signal.removeEventListener('abort', onAbort!)
  }
}

function toModelError(
  error: unknown,
  sdk: OpenAIModule | undefined,
  lastFailure: FailedAnswer | undefined,
  context: ErrorContext,
  timeoutMs: number | undefined,
): ModelError {
  if (sdk) {
    // The timeout class extends the connection class: it is asked first.
    if (error instanceof sdk.APIConnectionTimeoutError) return timeoutError(timeoutMs, context)
    if (error instanceof sdk.APIConnectionError) return connectionError(error.cause, context)
    if (error instanceof sdk.APIError && error.status !== undefined) {
      const body = lastFailure && lastFailure.status === error.status ? lastFailure.body : JSON.stringify({error: error.error})
      return httpStatusError(error.status, body, context)
    }
  }

  return unexpectedFailure(error, context)
}
