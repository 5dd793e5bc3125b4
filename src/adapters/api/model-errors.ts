import {isRecord, REDACTED} from '@hanzo-dev/sdk/settings'

import {ModelError} from '../../core/agent/types.js'
import {redactSecrets} from '../../core/config/redact.js'

/** Where a model call failed, and what its message must never show. */
export interface ErrorContext {
  /** The base URL, already redacted (`redactBaseUrl`). */
  endpoint?: string
  /** The API key: servers echo it back ("Incorrect API key provided: sk-..."), so it is scrubbed from every message. */
  secret?: string
  /** What a reply of this API is called, for a body that is not one; default `an OpenAI-compatible reply`. */
  expectedReply?: string
}

/** What a server said about a failure. */
interface ServerError {
  message?: string
  code?: string
}

/** A server's page of HTML or a stack trace is cut here: the message is read in a terminal. */
const MAX_MESSAGE_LENGTH = 500
const CONFIG_HINT = 'Check base_url in your settings or HANZO_BASE_URL.'

/**
 * The message and code of an error body in any of the shapes OpenAI-compatible servers send:
 * `{"error": {"message", "type", "code"}}` (OpenAI, Ollama), `{"error": "text"}` (LM Studio),
 * a bare error object `{"message", "type", "code"}` (vLLM, the Responses `error` event),
 * `{"detail": ...}` (FastAPI servers), or plain text (a proxy's error page).
 */
function serverError(body: unknown): ServerError {
  if (typeof body === 'string') return {message: body.trim() || undefined}
  if (!isRecord(body)) return {}
  if (typeof body.error === 'string') return {message: body.error}
  const error = isRecord(body.error) ? body.error : body
  const code = [error.code, error.type].find((value) => typeof value === 'string' && value !== '')
  let message: string | undefined
  if (typeof error.message === 'string' && error.message !== '') message = error.message
  else if (error.detail !== undefined)
    message = typeof error.detail === 'string' ? error.detail : JSON.stringify(error.detail)
  return {code: code as string | undefined, message}
}

/** {@link serverError} of a response body as text: JSON when it parses, the text itself otherwise. */
function serverErrorFromText(text: string): ServerError {
  try {
    return serverError(JSON.parse(text))
  } catch {
    return serverError(text)
  }
}

/** A body or stream event that is an error object, not a reply. */
export function isErrorReply(value: unknown): boolean {
  return isRecord(value) && value.error !== undefined && value.error !== null
}

/** A non-2xx answer, after the transport's retries. */
export function httpStatusError(status: number, bodyText: string, context: ErrorContext): ModelError {
  const {code, message} = serverErrorFromText(bodyText)
  return modelError(message ?? `The model server answered HTTP ${status} without an error message.`, context, {
    code,
    status,
  })
}

/**
 * An error the server sent instead of a reply, with a 200 status: an error body, or an error
 * event inside the stream. There is no failing HTTP status to report, so `status` is absent.
 */
export function replyError(error: unknown, context: ErrorContext): ModelError {
  const {code, message} = serverError(error)
  return modelError(message ?? `The model server sent an error without a message: ${JSON.stringify(error)}`, context, {
    code,
  })
}

/** The body ended before the API's closing event: the connection dropped or the server gave up. */
export function streamEndedEarly(context: ErrorContext): ModelError {
  return modelError(`The model stream${at(context)} ended before the reply was complete.`, context)
}

/** A 200 whose body is neither the API's reply nor an error object; `code` says what was asked for, when callers tell such answers apart. */
export function unexpectedReply(what: string, context: ErrorContext, code?: string): ModelError {
  return modelError(
    `The model server${at(context)} sent ${what}, not ${context.expectedReply ?? 'an OpenAI-compatible reply'}. ${CONFIG_HINT}`,
    context,
    {code},
  )
}

/** The server was never reached, or the connection failed before an answer. */
export function connectionError(cause: unknown, context: ErrorContext): ModelError {
  const code = systemErrorCode(cause)
  const where = at(context)
  let message: string
  if (code === 'ECONNREFUSED') {
    message = `Could not connect to the model server${where}: connection refused. Is the server running? ${CONFIG_HINT}`
  } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    message = `Could not find the model server${where}: its host name does not resolve. ${CONFIG_HINT} Check your network connection.`
  } else {
    message = `Could not reach the model server${where} (${code ?? rootMessage(cause)}). Is the server running? ${CONFIG_HINT}`
  }

  return modelError(message, context, {cause, code})
}

export function timeoutError(timeoutMs: number | undefined, context: ErrorContext): ModelError {
  const limit = timeoutMs === undefined ? 'in time' : `within ${timeoutMs} ms`
  return modelError(
    `The model server${at(context)} did not answer ${limit}. Is it overloaded? ${CONFIG_HINT}`,
    context,
    {code: 'ETIMEDOUT'},
  )
}

/** A base URL the client will not use: not an http(s) URL, or one with a user name or password in it. */
export function invalidBaseUrl(problem: string, context: ErrorContext): ModelError {
  return modelError(`The base URL${at(context)} ${problem}. ${CONFIG_HINT}`, context, {code: 'invalid_base_url'})
}

/** Anything else that failed the call (a bug, a client-side check): its own message, cleaned. */
export function unexpectedFailure(cause: unknown, context: ErrorContext): ModelError {
  return modelError(`The model request${at(context)} failed: ${describe(cause)}`, context, {cause})
}

function modelError(
  message: string,
  context: ErrorContext,
  details: {status?: number; code?: string; cause?: unknown} = {},
): ModelError {
  // Other layers' messages may quote URLs whole: their user info goes too.
  let text = redactSecrets(message, [context.secret]).replaceAll(/(\/\/)[^/@\s]+@/g, `$1${REDACTED}@`)
  if (text.length > MAX_MESSAGE_LENGTH) text = `${text.slice(0, MAX_MESSAGE_LENGTH)}…`
  return new ModelError(text, {...details, endpoint: context.endpoint})
}

function at(context: ErrorContext): string {
  return context.endpoint ? ` at ${context.endpoint}` : ''
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The innermost cause's message: a wrapping error says only that it failed, its cause says why. */
function rootMessage(error: unknown): string {
  let inner = error
  for (let depth = 0; depth < 5 && inner instanceof Error && inner.cause instanceof Error; depth++) inner = inner.cause
  return describe(inner)
}

/**
 * The system error code (`ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`): on the error, on its
 * cause, or on each error of an AggregateError when a host name has several addresses
 * (`localhost` is ::1 and 127.0.0.1).
 */
export function systemErrorCode(error: unknown, depth = 0): string | undefined {
  if (!isRecord(error) || depth > 5) return undefined
  if (typeof error.code === 'string') return error.code
  if (Array.isArray(error.errors)) {
    for (const inner of error.errors) {
      const code = systemErrorCode(inner, depth + 1)
      if (code) return code
    }
  }

  return systemErrorCode(error.cause, depth + 1)
}
