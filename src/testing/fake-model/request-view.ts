import {isRecord} from '@hanzo-dev/sdk/settings'

/** What the fake model checks and counts in a request, read alike from either API's body. */
export interface RequestView {
  system: string[]
  /** The user messages' text, in order. */
  users: string[]
  /** `name` is the tool of the call the result answers, when the history shows that call. */
  toolResults: Array<{callId: string; name?: string; content: string}>
  /** The ids of the tool calls the history's assistant messages make, in order. */
  toolCalls: string[]
  tools: string[]
  /** The Authorization header, only to check `authorization_sha256`; never recorded or shown. */
  authorization?: string
  /** The reply limit the request sets (`max_tokens`, `max_completion_tokens` or `max_output_tokens`). */
  maxOutputTokens?: number
  /** Characters of all the text the conversation carries (messages, tool arguments, results): the default input usage. */
  textLength: number
}

/** `view` with the request's reply limit: each API names it its own way, the fake checks whichever came. */
export function withReplyLimit(view: RequestView, body: Record<string, unknown>): RequestView {
  const limit = [body.max_tokens, body.max_completion_tokens, body.max_output_tokens].find(
    (value) => typeof value === 'number',
  )
  return limit === undefined ? view : {...view, maxOutputTokens: limit}
}

export function emptyView(): RequestView {
  return {system: [], textLength: 0, toolCalls: [], toolResults: [], tools: [], users: []}
}

/** The text of a message's content: a string, or the `text` of each part (`text`, `input_text`, `output_text`). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('')
}
