import {getDefaultOpenAIApi, type OpenAIApi} from '../../core/agent/default-client.js'
import type {ApiClient} from '../../core/agent/types.js'
import {redactBaseUrl} from '../../core/config/redact.js'
import {chatCompletionsFor, isOpenAIHost} from './chat-completions.js'
import {createHttpTransport, type HttpTransportOptions} from './http-transport.js'
import {responsesWire} from './responses.js'
import type {WireApi} from './wire-api.js'
import {createWireClient} from './wire-client.js'

export interface OpenAIClientOptions extends Pick<HttpTransportOptions, 'now' | 'sleep'> {
  /** The `/v1` base URL, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseURL: string
  /** Absent or empty for servers without authentication (Ollama, llama.cpp): then no Authorization header is sent. */
  apiKey?: string
  /** Absent: the default API (`setDefaultOpenAIApi`, else `responses`), read at each request, as the SDKs' clients, which serve either. */
  api?: OpenAIApi
  /** Retries of a 408, 409, 429 or 5xx answer and of a failed connection, with exponential backoff (or the server's retry-after); default 2. */
  maxRetries?: number
  defaultHeaders?: Record<string, string>
  /** How long each attempt may wait for the server to start answering; a stream that has started runs on. Default 10 minutes. */
  timeoutMs?: number
  /**
   * Sent as `prompt_cache_key` (a session's id: its requests share a prefix, so the server routes
   * them to the same cache). Only for servers that take it: see `promptCacheKey`.
   */
  promptCacheKey?: string
}

/**
 * The `prompt_cache_key` a provider's requests carry: `key` for OpenAI (the `openai` provider or
 * api.openai.com), or wherever `providers.<name>.prompt_cache` says true; nothing elsewhere,
 * since compatible servers may refuse a field they do not know.
 */
export function promptCacheKey(
  endpoint: {provider: string; baseURL: string; promptCache?: boolean},
  key: string,
): string | undefined {
  const takesKey = endpoint.promptCache ?? (endpoint.provider === 'openai' || isOpenAIHost(endpoint.baseURL))
  return takesKey ? key : undefined
}

/**
 * An `ApiClient` for any OpenAI-compatible server, over chat completions or the Responses API
 * (see `createWireClient` for how failures and aborts are reported).
 *
 * `http-transport` sends, authenticates, retries and times out each request; the body is read
 * with our `SseFrameBuffer` rather than the openai SDK's stream, which costs more per call.
 */
export function createOpenAIClient(options: OpenAIClientOptions): ApiClient {
  const transport = createHttpTransport(options)
  const over = (wire: WireApi) =>
    createWireClient({
      baseURL: options.baseURL,
      context: {endpoint: redactBaseUrl(options.baseURL), secret: options.apiKey || undefined},
      timeoutMs: options.timeoutMs,
      transport,
      wire,
    })
  const chat = over(chatCompletionsFor(options.baseURL, options.promptCacheKey))
  const responsesApi = over(responsesWire(options.promptCacheKey))
  if (options.api) return options.api === 'responses' ? responsesApi : chat
  return {
    sendMessage: (...request) => (getDefaultOpenAIApi() === 'responses' ? responsesApi : chat).sendMessage(...request),
  }
}
