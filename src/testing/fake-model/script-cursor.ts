import {unmetExpectations} from './expectations.js'
import type {RequestView} from './request-view.js'
import {DEFAULT_MODEL, type HttpErrorTurn, type ReplyTurn, type Script, type ScriptErrorObject} from './script.js'

/** A scripted reply made concrete: ids given, arguments as the strings sent, usage counted. */
export interface Reply {
  /** 1-based, as the error messages count turns. */
  turn: number
  model: string
  text: string
  toolCalls: Array<{id: string; name: string; arguments: string}>
  usage: {input_tokens: number; output_tokens: number; cache_read_tokens: number; cache_write_tokens: number}
  chunkSize?: number
  delayMs: number
  truncated: boolean
  streamError?: ScriptErrorObject
}

/** How the fake model answers one request, whatever the API: each API shapes error objects its own way. */
export type Outcome =
  | {kind: 'reply'; reply: Reply}
  /** `body`: an error object, or a text/plain body as written. */
  | {kind: 'http_error'; status: number; headers: Record<string, string>; body: ScriptErrorObject | string}
  /** A 200 whose JSON body is this error. */
  | {kind: 'error_body'; error: ScriptErrorObject}

/** Statuses the openai client retries (with `x-should-retry` unset). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500
}

/**
 * Walks a script: each request takes the next turn, checked against its expectations. Shared
 * by the HTTP server and the replay client, so both answer a script alike.
 */
export class ScriptCursor {
  readonly model: string
  private used = 0

  constructor(private readonly script: Script) {
    this.model = script.model ?? DEFAULT_MODEL
  }

  answer(view: RequestView): Outcome {
    const turn = this.script.turns[this.used]
    const number = ++this.used
    if (turn === undefined) {
      // Not retried (x-should-retry): a client asking again would only hear the same.
      return failure(
        500,
        {'x-should-retry': 'false'},
        {
          code: 'fake_model_script_exhausted',
          message: `fake-model: script exhausted: request ${number} has no turn (the script has ${this.script.turns.length}); the client sent more model requests than the script expects`,
          type: 'server_error',
        },
      )
    }

    const unmet = turn.expect ? unmetExpectations(turn.expect, view) : []
    if (unmet.length > 0) {
      return failure(
        400,
        {},
        {
          code: 'fake_model_expectation_failed',
          message: `fake-model: turn ${number}: the request does not meet the script's expectations: ${unmet.join('; ')}`,
          type: 'invalid_request_error',
        },
      )
    }

    if ('status' in turn) return scriptedStatus(turn)
    if ('error_body' in turn) return {error: turn.error_body, kind: 'error_body'}
    return {kind: 'reply', reply: resolveReply(turn, number, this.model, view)}
  }
}

/** A scripted HTTP error, with the default message and the header that makes clients retry at once. */
export function scriptedStatus(turn: Omit<HttpErrorTurn, 'expect'>): Extract<Outcome, {kind: 'http_error'}> {
  const names = Object.keys(turn.headers ?? {}).map((name) => name.toLowerCase())
  // So that tests and demos do not wait out the client's default backoff (0.5 s, 1 s, ...).
  const retryNow = isRetryableStatus(turn.status) && !names.includes('retry-after') && !names.includes('retry-after-ms')
  const headers: Record<string, string> = {...(retryNow && {'retry-after-ms': '0'}), ...turn.headers}
  const body = turn.body ?? {
    code: null,
    message: `fake-model: scripted HTTP ${turn.status}`,
    param: null,
    type: turn.status >= 500 ? 'server_error' : 'invalid_request_error',
  }
  return failure(turn.status, headers, body)
}

function failure(
  status: number,
  headers: Record<string, string>,
  body: ScriptErrorObject | string,
): Extract<Outcome, {kind: 'http_error'}> {
  return {body, headers, kind: 'http_error', status}
}

function resolveReply(turn: ReplyTurn, number: number, model: string, view: RequestView): Reply {
  const text = turn.text ?? ''
  const toolCalls = (turn.tool_calls ?? []).map((call, index) => ({
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    id: call.id ?? `call_fake_${number}_${index + 1}`,
    name: call.name,
  }))
  const outputLength = text.length + toolCalls.reduce((sum, call) => sum + call.arguments.length, 0)
  return {
    chunkSize: turn.chunk_size,
    delayMs: turn.delay_ms ?? 0,
    model,
    streamError: turn.stream_error,
    text,
    toolCalls,
    truncated: turn.truncated ?? false,
    turn: number,
    // About four characters a token: enough for context-window logic to see a conversation grow.
    usage: {
      input_tokens: turn.usage?.input_tokens ?? Math.ceil(view.textLength / 4),
      output_tokens: turn.usage?.output_tokens ?? Math.ceil(outputLength / 4),
      cache_read_tokens: turn.usage?.cache_read_tokens ?? 0,
      cache_write_tokens: turn.usage?.cache_write_tokens ?? 0,
    },
  }
}
