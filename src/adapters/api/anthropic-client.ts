import type {ApiClient} from '../../core/agent/types.js'
import {redactBaseUrl} from '../../core/config/redact.js'
import {anthropicRequest, type AnthropicRequestOptions} from './anthropic-request.js'
import {AnthropicStreamDecoder, messageEvents} from './anthropic-stream.js'
import {createHttpTransport} from './http-transport.js'
import type {WireApi} from './wire-api.js'
import {createWireClient} from './wire-client.js'

export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com'
export const ANTHROPIC_VERSION = '2023-06-01'

export interface AnthropicClientOptions {
  /** Default `https://api.anthropic.com`. A trailing `/v1` is taken off: requests go to `<base>/v1/messages` either way. */
  baseURL?: string
  /** An API key, or an OAuth access token from a login (then `authScheme: 'bearer'`). Absent: no credential is sent. */
  apiKey?: string
  /** `x-api-key` (the default) for API keys; `bearer` sends `authorization: Bearer`, as OAuth access tokens go. */
  authScheme?: 'x-api-key' | 'bearer'
  /** Retries of a 408, 409, 429 or 5xx answer (529 overloaded included) and of a failed connection; default 2. */
  maxRetries?: number
  /** Sent with every request, over ours (e.g. `anthropic-beta`). */
  defaultHeaders?: Record<string, string>
  /** How long each attempt may wait for the server to start answering; default 10 minutes. */
  timeoutMs?: number
  /** Turns on extended thinking with this budget (at least 1024); off by default. */
  thinkingBudgetTokens?: number
  /** `cache_control` breakpoints on tools, system prompt and the latest messages; default on. */
  promptCache?: boolean
}

/** The base URL requests add `/v1/...` to: our other providers' base URLs end in /v1, and users carry that habit over. */
export function anthropicRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, '').replace(/\/v1$/, '')
}

/** `POST /v1/messages`, streaming. The `raw` of `message_stop` is the whole message, thinking blocks included. */
export function anthropicMessages(options: AnthropicRequestOptions = {}): WireApi {
  return {
    path: '/v1/messages',
    replyEvents: messageEvents,
    request: anthropicRequest(options),
    streamDecoder: (context) => new AnthropicStreamDecoder(context),
  }
}

/**
 * An `ApiClient` for Anthropic's Messages API, over the same transport as the OpenAI client:
 * the same retries (`retry-after`, `x-should-retry`), the same failures (401/402/403 at once
 * with the server's own message, an unreachable server named with a hint), SSE read by our
 * `SseFrameBuffer`. `@anthropic-ai/sdk` is never loaded.
 */
export function createAnthropicClient(options: AnthropicClientOptions = {}): ApiClient {
  const baseURL = options.baseURL ?? ANTHROPIC_BASE_URL
  const key = options.apiKey || undefined
  const bearer = options.authScheme === 'bearer'
  return createWireClient({
    baseURL: anthropicRoot(baseURL),
    context: {endpoint: redactBaseUrl(baseURL), expectedReply: 'an Anthropic Messages API reply', secret: key},
    timeoutMs: options.timeoutMs,
    transport: createHttpTransport({
      apiKey: bearer ? key : undefined,
      defaultHeaders: {
        'anthropic-version': ANTHROPIC_VERSION,
        ...(key && !bearer && {'x-api-key': key}),
        ...options.defaultHeaders,
      },
      maxRetries: options.maxRetries,
      timeoutMs: options.timeoutMs,
    }),
    wire: anthropicMessages({
      promptCache: options.promptCache,
      thinkingBudgetTokens: options.thinkingBudgetTokens,
    }),
  })
}
