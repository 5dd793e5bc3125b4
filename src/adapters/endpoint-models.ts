import {isRecord} from '@hanzo-dev/sdk/settings'

import type {ModelEndpoint} from '../core/agent/endpoint.js'
import type {ModelError} from '../core/agent/types.js'
import {redactBaseUrl} from '../core/config/redact.js'
import {ANTHROPIC_VERSION, anthropicRoot} from './api/anthropic-client.js'
import {
  connectionError,
  type ErrorContext,
  httpStatusError,
  invalidBaseUrl,
  isErrorReply,
  replyError,
  timeoutError,
  unexpectedReply,
} from './api/model-errors.js'
import {baseUrlProblem} from './api/wire-client.js'

/** Where a model list is asked for: a resolved endpoint's URL and credential (see {@link modelListEndpoint}). */
export interface ModelListEndpoint {
  baseURL: string
  apiKey?: string
  /** `openai`: `GET {baseURL}/models` with a bearer key; `anthropic`: `GET /v1/models` with `x-api-key`, paginated. */
  wire: 'openai' | 'anthropic'
  /** Sent with every request, over ours. */
  headers?: Record<string, string>
}

/** A model as the endpoint lists it: what the server says of it, nothing guessed. */
export interface EndpointModel {
  id: string
  /** Tokens, when the server says (vLLM, OpenRouter, LM Studio and others do; OpenAI and Ollama do not). */
  contextWindow?: number
  /** Seconds since the epoch. */
  created?: number
  ownedBy?: string
}

export interface ListModelsOptions {
  signal?: AbortSignal
  /** For the whole listing, every page included; default 10 s. */
  timeoutMs?: number
}

/**
 * The `code` of the error a 2xx answer that holds no model list gets (an HTML page, JSON without
 * `data`): the server is there but cannot say what it serves, which is not the same as failing.
 */
export const NO_MODEL_LIST = 'no_model_list'

const DEFAULT_TIMEOUT_MS = 10_000
/** Anthropic's largest page: one request for any account today. */
const ANTHROPIC_PAGE_SIZE = 1000
/** A server whose `has_more` never ends is not followed forever. */
const MAX_PAGES = 50
/** Where servers put a model's context window: vLLM, OpenRouter and Together, LM Studio, Anthropic. */
const CONTEXT_WINDOW_FIELDS = [
  'max_model_len',
  'context_length',
  'max_context_length',
  'context_window',
  'max_input_tokens',
]

/**
 * The models an endpoint serves, newest first (as Anthropic lists them; OpenAI's order means
 * nothing), then by id. A failure is the ModelError a model call would get: an HTTP error with
 * its status and the server's own message, an unreachable server, a timeout, a base URL no
 * request can go to; a 2xx without a list has code {@link NO_MODEL_LIST}. An abort by `signal`
 * rejects with the signal's reason. The key never appears in a message.
 */
export async function listEndpointModels(
  endpoint: ModelListEndpoint,
  options: ListModelsOptions = {},
): Promise<EndpointModel[]> {
  const context: ErrorContext = {
    endpoint: redactBaseUrl(endpoint.baseURL),
    expectedReply: 'a list of models',
    secret: endpoint.apiKey ?? bearerIn(endpoint.headers),
  }
  const problem = baseUrlProblem(endpoint.baseURL)
  if (problem) throw invalidBaseUrl(problem, context)
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(options.signal ? [options.signal] : [])])
  const get = (url: string) =>
    getList(url, requestHeaders(endpoint), {context, signal, timeoutMs, caller: options.signal})

  const models: EndpointModel[] = []
  if (endpoint.wire === 'openai') {
    models.push(
      ...(await get(listUrl(endpoint.baseURL, (path) => `${path.replace(/\/+$/, '')}/models`))).data.map(modelOf),
    )
  } else {
    let after: string | undefined
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = {limit: String(ANTHROPIC_PAGE_SIZE), ...(after && {after_id: after})}
      const body = await get(listUrl(endpoint.baseURL, (path) => `${anthropicRoot(path)}/v1/models`, query))
      models.push(...body.data.map(modelOf))
      after = typeof body.last_id === 'string' ? body.last_id : undefined
      if (body.has_more !== true || !after) break
    }
  }

  return models.filter((m) => m.id !== '').sort(newestFirst)
}

/** The model list of the endpoint a run talks to (`resolveRunEndpoint`): same URL, same credential, same scheme. */
export function modelListEndpoint(
  endpoint: Pick<ModelEndpoint, 'api' | 'apiKey' | 'authScheme' | 'baseURL'>,
): ModelListEndpoint {
  const {apiKey, baseURL} = endpoint
  if (endpoint.api !== 'anthropic_messages') return {apiKey, baseURL, wire: 'openai'}
  // An OAuth access token goes to Anthropic as a bearer token, never as x-api-key.
  if (endpoint.authScheme === 'bearer' && apiKey)
    return {baseURL, headers: {authorization: `Bearer ${apiKey}`}, wire: 'anthropic'}
  return {apiKey, baseURL, wire: 'anthropic'}
}

/** The base URL with its path changed by `path` and `query` added: a query the base URL carries (a proxy's token) stays. */
function listUrl(baseURL: string, path: (base: string) => string, query: Record<string, string> = {}): string {
  const url = new URL(baseURL)
  url.pathname = path(url.pathname)
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value)
  return url.href
}

function requestHeaders(endpoint: ModelListEndpoint): Record<string, string> {
  const {apiKey, wire} = endpoint
  return {
    accept: 'application/json',
    ...(wire === 'anthropic'
      ? {'anthropic-version': ANTHROPIC_VERSION, ...(apiKey && {'x-api-key': apiKey})}
      : apiKey && {authorization: `Bearer ${apiKey}`}),
    ...endpoint.headers,
  }
}

interface GetOptions {
  context: ErrorContext
  signal: AbortSignal
  timeoutMs: number
  /** The caller's own signal: its abort is theirs to handle, not a failure to word. */
  caller?: AbortSignal
}

/** A list's body: Anthropic's pages add `has_more` and `last_id`. */
type ListBody = Record<string, unknown> & {data: Record<string, unknown>[]}

/** One GET whose 2xx body must be `{data: [...]}`. Redirects are not followed: the key must not go where they lead. */
async function getList(url: string, headers: Record<string, string>, options: GetOptions): Promise<ListBody> {
  const {caller, context, signal, timeoutMs} = options
  let status: number
  let text: string
  try {
    const response = await fetch(url, {headers, redirect: 'manual', signal})
    status = response.status
    text = await response.text()
  } catch (error) {
    if (caller?.aborted) throw caller.reason
    if (signal.aborted) throw timeoutError(timeoutMs, context)
    throw connectionError(error, context)
  }

  if (status < 200 || status >= 300) throw httpStatusError(status, text, context)
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw noList(text.trimStart().startsWith('<') ? 'an HTML page' : 'a body that is not JSON', context)
  }

  if (isErrorReply(body)) throw replyError((body as {error: unknown}).error, context)
  if (!isRecord(body) || !Array.isArray(body.data)) throw noList('JSON without a "data" list', context)
  return {...body, data: body.data.filter(isRecord)}
}

function noList(what: string, context: ErrorContext): ModelError {
  return unexpectedReply(what, context, NO_MODEL_LIST)
}

function modelOf(entry: Record<string, unknown>): EndpointModel {
  const created =
    typeof entry.created === 'number'
      ? entry.created
      : typeof entry.created_at === 'string'
        ? Math.floor(Date.parse(entry.created_at) / 1000)
        : undefined
  const contextWindow = CONTEXT_WINDOW_FIELDS.map((field) => entry[field]).find(
    (value): value is number => Number.isSafeInteger(value) && (value as number) > 0,
  )
  return {
    id: typeof entry.id === 'string' ? entry.id : '',
    ...(contextWindow !== undefined && {contextWindow}),
    ...(created !== undefined && Number.isFinite(created) && {created}),
    ...(typeof entry.owned_by === 'string' && {ownedBy: entry.owned_by}),
  }
}

function newestFirst(a: EndpointModel, b: EndpointModel): number {
  if (a.created !== b.created) return (b.created ?? -Infinity) - (a.created ?? -Infinity)
  return a.id.localeCompare(b.id, 'en', {numeric: true})
}

function bearerIn(headers: Record<string, string> | undefined): string | undefined {
  const value = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1]
  return value?.replace(/^bearer\s+/i, '')
}
