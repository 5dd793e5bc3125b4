import {Agent as HttpAgent, type IncomingHttpHeaders, type IncomingMessage, request as httpRequest} from 'node:http'
import {Agent as HttpsAgent, request as httpsRequest} from 'node:https'
import {text} from 'node:stream/consumers'
import {finished} from 'node:stream/promises'
import {setTimeout as sleepFor} from 'node:timers/promises'

import {UserError} from '../../core/errors.js'
import {globMatches} from '../../core/permissions/glob.js'
import {Backoff} from '../../core/protocol/backoff.js'

export interface HttpTransportOptions {
  /** Absent or empty: no Authorization header at all (Ollama, llama.cpp). */
  apiKey?: string
  /** Sent with every request; they win over ours. */
  defaultHeaders?: Record<string, string>
  /** Default 2. */
  maxRetries?: number
  /** Per attempt, until the response headers arrive; default 10 minutes. */
  timeoutMs?: number
  /** Waits `ms` between attempts, rejecting at once when `signal` aborts; default a real timer (tests pass one that does not wait). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  /** The time a `retry-after` HTTP date is counted from, in ms since the epoch; default Date.now. */
  now?: () => number
}

/** How a POST ended, after its retries. Failures are values: the caller words them. */
export type Answer =
  | {kind: 'response'; response: IncomingMessage}
  | {kind: 'status'; status: number; body: string}
  | {kind: 'timeout'}
  | {kind: 'connection'; cause: unknown}
  | {kind: 'aborted'}

export interface HttpTransport {
  /** POSTs a JSON body asking for an event stream; a `response` answer is a 2xx whose body is the caller's to read. */
  post(url: URL, body: string, signal: AbortSignal | undefined): Promise<Answer>
}

type Attempt = Exclude<Answer, {kind: 'status'}> | {kind: 'stale'}

const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000
// setTimeout fires at once past this (with a warning): a longer limit is as good as none.
const MAX_TIMER_MS = 2 ** 31 - 1
const USER_AGENT = `hanzo-dev (Node.js ${process.version})`

/** Node's debug output of these modules (NODE_DEBUG) prints each request's headers, the API key among them. */
const HEADER_PRINTING_MODULES = ['http', 'https', 'http2', 'net', 'tls']

/**
 * Refuses to send with NODE_DEBUG naming a module that prints request headers: Node reads
 * NODE_DEBUG once, as it starts, so unsetting it now would change nothing, and the key would
 * reach stderr (and every log that keeps it). Sections are comma-separated and may hold `*`.
 */
export function refuseHeaderDebugOutput(nodeDebug: string | undefined): void {
  if (!nodeDebug) return
  const sections = nodeDebug
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  if (!sections.some((section) => HEADER_PRINTING_MODULES.some((name) => globMatches(section.toLowerCase(), name))))
    return
  throw new UserError(
    `NODE_DEBUG=${nodeDebug} makes Node.js print every request's headers, the API key among them, so no model request is sent`,
    {
      hint: `unset NODE_DEBUG, or leave ${HEADER_PRINTING_MODULES.join(', ')} out of it, and run again`,
    },
  )
}

/**
 * Requests over node:http(s) with one keep-alive agent per protocol: undici's fetch and WHATWG
 * streams cost more per call than the agent loop itself. Retries 408/409/429/5xx answers and
 * failed or timed-out connections up to `maxRetries` times, waiting what the server asks
 * (`retry-after-ms`, `retry-after`) or else an exponential backoff with jitter, and obeys
 * `x-should-retry`: the rules of the openai client this replaces.
 */
export function createHttpTransport(options: HttpTransportOptions): HttpTransport {
  refuseHeaderDebugOutput(process.env.NODE_DEBUG)
  const agents = new Map<string, HttpAgent>()
  const agentFor = (protocol: string): HttpAgent => {
    let agent = agents.get(protocol)
    if (!agent) {
      agent = protocol === 'https:' ? new HttpsAgent({keepAlive: true}) : new HttpAgent({keepAlive: true})
      agents.set(protocol, agent)
    }

    return agent
  }

  const timeoutMs = Math.min(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMER_MS)
  const maxRetries = options.maxRetries ?? 2
  const {now = Date.now, sleep = (ms: number, signal?: AbortSignal) => sleepFor(ms, undefined, {signal})} = options

  return {
    async post(url, body, signal) {
      const headers = requestHeaders(options, Buffer.byteLength(body))
      const backoff = new Backoff({baseMs: 500, maxMs: 8000})
      let retriesLeft = maxRetries
      for (;;) {
        const attempt = await send(url, {agent: agentFor(url.protocol), body, headers, signal, timeoutMs})
        // A pooled socket the server had already closed: the request never reached it, so this is no failed attempt.
        if (attempt.kind === 'stale') continue
        if (attempt.kind === 'aborted') return attempt
        const answer = attempt.kind === 'response' ? await settle(attempt.response, signal) : attempt
        if (answer.kind === 'response' || answer.kind === 'aborted') return answer
        const responseHeaders = attempt.kind === 'response' ? attempt.response.headers : {}
        if (retriesLeft <= 0 || !shouldRetry(answer, responseHeaders)) return answer
        retriesLeft--
        if (!(await wait(sleep, serverDelay(responseHeaders, now()) ?? backoff.nextDelay(), signal)))
          return {kind: 'aborted'}
      }
    },
  }
}

function requestHeaders(options: HttpTransportOptions, contentLength: number): Record<string, string | number> {
  return {
    Accept: 'text/event-stream',
    ...(options.apiKey && {Authorization: `Bearer ${options.apiKey}`}),
    'Content-Length': contentLength,
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    ...options.defaultHeaders,
  }
}

interface SendOptions {
  agent: HttpAgent
  body: string
  headers: Record<string, string | number>
  signal: AbortSignal | undefined
  timeoutMs: number
}

/** One attempt, until its response headers arrive. */
function send(url: URL, options: SendOptions): Promise<Attempt> {
  const {agent, body, headers, signal, timeoutMs} = options
  return new Promise((resolve) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      agent,
      headers,
      method: 'POST',
      signal,
    })
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      request.destroy()
    }, timeoutMs)
    request.once('response', (response) => {
      clearTimeout(timer)
      resolve({kind: 'response', response})
    })
    // `on`, not `once`: an abort after the response also errors the request, and unheard it would throw.
    request.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      if (signal?.aborted) resolve({kind: 'aborted'})
      else if (timedOut) resolve({kind: 'timeout'})
      else if (request.reusedSocket && error.code === 'ECONNRESET') resolve({kind: 'stale'})
      else resolve({kind: 'connection', cause: error})
    })
    request.end(body)
  })
}

/** A 2xx as it is; any other status read whole, for its message (which also frees the socket). */
async function settle(response: IncomingMessage, signal: AbortSignal | undefined): Promise<Answer> {
  const status = response.statusCode ?? 0
  if (status >= 200 && status < 300) return {kind: 'response', response}
  try {
    return {body: await text(response), kind: 'status', status}
  } catch (error) {
    return signal?.aborted ? {kind: 'aborted'} : {cause: error, kind: 'connection'}
  }
}

function shouldRetry(answer: Answer, headers: IncomingHttpHeaders): boolean {
  if (answer.kind !== 'status') return true
  const header = headers['x-should-retry']
  if (header === 'true') return true
  if (header === 'false') return false
  const {status} = answer
  return status === 408 || status === 409 || status === 429 || status >= 500
}

/** The wait the server asked for, in ms: `retry-after-ms`, else `retry-after` in seconds or as an HTTP date. */
function serverDelay(headers: IncomingHttpHeaders, now: number): number | undefined {
  const ms = Number.parseFloat(singleHeader(headers['retry-after-ms']) ?? '')
  if (Number.isFinite(ms)) return Math.max(0, ms)
  const after = singleHeader(headers['retry-after'])
  if (!after) return undefined
  const seconds = Number.parseFloat(after)
  const delay = Number.isNaN(seconds) ? Date.parse(after) - now : seconds * 1000
  return Number.isFinite(delay) ? Math.max(0, delay) : undefined
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** False when the signal aborted the wait: Ctrl-C during a rate-limit backoff ends the call now. */
async function wait(
  sleep: NonNullable<HttpTransportOptions['sleep']>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  try {
    await sleep(ms, signal)
    return true
  } catch {
    return false
  }
}

/**
 * Done with a 2xx body, whether read to its end or not. Its rest is drained so that the
 * socket goes back to the pool: awaited when the body has all arrived, so that the next call
 * finds the socket free; a server that keeps the stream open past the reply's end gets a
 * moment, then the socket is closed.
 */
export async function release(response: IncomingMessage): Promise<void> {
  if (response.readableEnded || response.destroyed) return
  response.resume()
  if (response.complete) {
    await finished(response).catch(() => {})
    return
  }

  const timer = setTimeout(() => response.destroy(), 1000)
  timer.unref()
  response.once('close', () => clearTimeout(timer))
}
