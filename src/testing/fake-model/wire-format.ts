import type {RequestView} from './request-view.js'
import type {ScriptErrorObject} from './script.js'
import type {Reply} from './script-cursor.js'

/** One API as the fake model speaks it. */
export interface FakeWireFormat {
  /** What the expectations and the usage count read from the request body. */
  view(request: Record<string, unknown>): RequestView
  /** A streamed reply: complete server-sent events, in order. */
  stream(reply: Reply, request: Record<string, unknown>): string[]
  /** A reply to a request without `stream: true`. */
  json(reply: Reply): unknown
  /** The JSON body carrying an error: of an HTTP error (with its status), or of a 200. */
  errorBody(error: ScriptErrorObject, status?: number): unknown
}

/** OpenAI's error body (both OpenAI APIs): the error object as written. */
export function openAIErrorBody(error: ScriptErrorObject): unknown {
  return {error}
}

/** The headers and text of a scripted HTTP error's body: an error object in the API's shape, or a string as written. */
export function httpErrorBody(
  format: FakeWireFormat,
  status: number,
  body: ScriptErrorObject | string,
): {contentType: string; text: string} {
  if (typeof body === 'string') return {contentType: 'text/plain; charset=utf-8', text: body}
  return {contentType: 'application/json', text: JSON.stringify(format.errorBody(body, status))}
}

/** Every reply is stamped with this time: a script gives the same bytes on every run. */
export const FAKE_CREATED = 1_700_000_000

/** One server-sent event. */
export function sse(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`
}

/** `text` in pieces of `size` characters (whole when no size); none for "". */
export function deltas(text: string, size: number | undefined): string[] {
  if (text === '') return []
  if (size === undefined) return [text]
  const pieces: string[] = []
  // By code point, so a piece never ends inside a surrogate pair.
  const chars = [...text]
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(''))
  return pieces
}
