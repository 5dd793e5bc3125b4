import {setTimeout as sleep} from 'node:timers/promises'

import {Backoff} from '../core/protocol/backoff.js'
import {BatchTraceProcessor} from '../core/tracing/batch-processor.js'
import {addTraceProcessor, isTracingDisabledByEnv, readTracingEnvironmentFrom} from '../core/tracing/provider.js'
import type {TraceItem, TracingExporter} from '../core/tracing/types.js'

export interface BackendSpanExporterOptions {
  /** Where batches are POSTed (http or https). */
  endpoint: string
  /** Sent as `authorization: Bearer <apiKey>`; absent, no authorization header. */
  apiKey?: string
  /** Default: the global fetch. */
  fetch?: typeof globalThis.fetch
  /** The whole export of one batch, retries included. Default 5000 ms. */
  timeoutMs?: number
  /** Tries per batch. Default 3. */
  maxAttempts?: number
}

const DEFAULT_TIMEOUT_MS = 5000
const DEFAULT_MAX_ATTEMPTS = 3
// Short waits: the budget is seconds, and the next batch is coming anyway.
const RETRY_BASE_MS = 100
const RETRY_MAX_MS = 1000

const retryable = (status: number) => status === 408 || status === 429 || status >= 500

/**
 * Posts each batch as `{"data": [trace or span JSON, ...]}` to a collector, with the key as a
 * bearer token, as hanzo-agent's BackendSpanExporter does. A 408, 429, 5xx or network failure is
 * retried with jittered backoff inside one time budget; when the batch cannot be delivered, the
 * promise rejects (BatchTraceProcessor counts it as dropped), so a collector that is down costs
 * at most the budget, off the run's path. Redirects are refused: the key goes to this URL only.
 */
export class BackendSpanExporter implements TracingExporter {
  readonly #endpoint: string
  // For messages: the endpoint without its query, which may hold a token.
  readonly #where: string
  readonly #headers: Record<string, string>
  readonly #fetch: typeof globalThis.fetch
  readonly #timeoutMs: number
  readonly #maxAttempts: number

  constructor(options: BackendSpanExporterOptions) {
    const url = new URL(options.endpoint)
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`The tracing endpoint must be an http(s) URL, got ${url.protocol}`)
    this.#endpoint = options.endpoint
    this.#where = url.origin + url.pathname
    this.#headers = {
      'content-type': 'application/json',
      ...(options.apiKey ? {authorization: `Bearer ${options.apiKey}`} : {}),
    }
    this.#fetch = options.fetch ?? globalThis.fetch
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.#maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS
  }

  async export(items: readonly TraceItem[], signal?: AbortSignal): Promise<void> {
    if (items.length === 0) return
    const body = JSON.stringify({data: items})
    const budget = AbortSignal.timeout(this.#timeoutMs)
    const abort = signal ? AbortSignal.any([signal, budget]) : budget
    const backoff = new Backoff({baseMs: RETRY_BASE_MS, maxMs: RETRY_MAX_MS})
    let problem = 'not sent'
    for (let attempt = 1; attempt <= this.#maxAttempts && !abort.aborted; attempt++) {
      if (attempt > 1) await sleep(backoff.nextDelay(), undefined, {ref: false, signal: abort}).catch(() => {})
      if (abort.aborted) break
      const outcome = await this.#post(body, abort)
      if (outcome === undefined) return
      problem = outcome.problem
      if (!outcome.retry) break
    }

    if (abort.aborted) problem = budget.aborted ? `no answer within ${this.#timeoutMs} ms` : 'cancelled'
    throw new Error(`tracing: ${items.length} items not delivered to ${this.#where}: ${problem}`)
  }

  /** Undefined when the batch arrived. */
  async #post(body: string, signal: AbortSignal): Promise<{problem: string; retry: boolean} | undefined> {
    try {
      const response = await this.#fetch(this.#endpoint, {
        body,
        headers: this.#headers,
        method: 'POST',
        redirect: 'error',
        signal,
      })
      // The answer's body is not needed; reading it to the end frees the connection.
      await response.arrayBuffer().catch(() => {})
      if (response.ok) return undefined
      return {problem: `HTTP ${response.status}`, retry: retryable(response.status)}
    } catch (error) {
      const cause = (error as {cause?: {code?: unknown}}).cause?.code
      return {problem: typeof cause === 'string' ? cause : (error as Error).message, retry: true}
    }
  }
}

/** How long `hanzo-dev` waits at exit for its last spans to reach the collector. */
export const CLI_TRACING_SHUTDOWN_MS = 2000

export interface CliTracing {
  /** Sends the spans still queued; gives up after CLI_TRACING_SHUTDOWN_MS, so an exit never hangs on the collector. */
  shutdown(): Promise<void>
  /** Items that did not reach the collector, for a warning. */
  readonly dropped: number
}

/**
 * Turns tracing on for the CLI when the user settings name a collector (`tracing.endpoint`,
 * with `tracing.api_key` as its bearer token), unless HANZO_TRACING_DISABLED is 1 or true.
 * Undefined when it stays off. Call once per process, before the run, and `shutdown()` after it.
 */
export function configureCliTracing(
  config: {tracing?: {endpoint?: string; api_key?: string}},
  env: Readonly<Record<string, string | undefined>>,
): CliTracing | undefined {
  const endpoint = config.tracing?.endpoint
  if (!endpoint || isTracingDisabledByEnv(env)) return undefined
  const processor = new BatchTraceProcessor(new BackendSpanExporter({apiKey: config.tracing?.api_key, endpoint}))
  readTracingEnvironmentFrom(() => env)
  addTraceProcessor(processor)
  return {
    get dropped() {
      return processor.dropped
    },
    shutdown: () => processor.shutdown(CLI_TRACING_SHUTDOWN_MS),
  }
}
