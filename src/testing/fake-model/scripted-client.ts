import {setTimeout as sleep} from 'node:timers/promises'

import {anthropicMessages} from '../../adapters/api/anthropic-client.js'
import {chatCompletions} from '../../adapters/api/chat-completions.js'
import {decodeStream} from '../../adapters/api/decode-stream.js'
import {type ErrorContext, httpStatusError, replyError} from '../../adapters/api/model-errors.js'
import {responses} from '../../adapters/api/responses.js'
import type {ApiClient, Message, ModelToolSpec, SendOptions, StreamEvent} from '../../core/agent/types.js'
import {anthropicFormat} from './anthropic-format.js'
import {chatFormat} from './chat-format.js'
import {responsesFormat} from './responses-format.js'
import {loadScript, parseScript, type Script, type ScriptSource} from './script.js'
import {isRetryableStatus, type Outcome, ScriptCursor} from './script-cursor.js'
import {httpErrorBody} from './wire-format.js'
import {withReplyLimit} from './request-view.js'

export interface ScriptedClientOptions {
  /** The API whose wire format the replay goes through; default `chat_completions`. */
  api?: 'chat_completions' | 'responses' | 'anthropic_messages'
  /** Retries of a retryable scripted status, each taking the next turn, as the openai client's; default 2. */
  maxRetries?: number
}

const APIS = {
  anthropic_messages: {format: anthropicFormat, wire: anthropicMessages()},
  chat_completions: {format: chatFormat, wire: chatCompletions},
  responses: {format: responsesFormat, wire: responses},
}

/** Replays have no server: errors name no endpoint. */
const CONTEXT: ErrorContext = {}

/**
 * An `ApiClient` that answers from a fake-model script without HTTP (the hidden `--fake-model`
 * flag). It builds the request the real client would send, answers it as the fake server
 * would (expectations, retries of 408/409/429/5xx, script exhaustion) and reads the scripted
 * stream through the real client's decoder, so it yields the same events as the HTTP path
 * (errors as `ModelError` with the scripted status and message), minus the endpoint.
 */
export class ScriptedApiClient implements ApiClient {
  private readonly cursor: ScriptCursor

  constructor(
    script: Script,
    private readonly options: ScriptedClientOptions = {},
  ) {
    this.cursor = new ScriptCursor(parseScript(script))
  }

  /** The script's model (default `fake-model`): the model a run names when no flag does. */
  get model(): string {
    return this.cursor.model
  }

  async *sendMessage(
    messages: readonly Message[],
    tools: readonly ModelToolSpec[],
    options: SendOptions,
  ): AsyncGenerator<StreamEvent> {
    const {signal} = options
    if (signal?.aborted) return
    const api = APIS[this.options.api ?? 'chat_completions']
    // Through JSON, as the body travels: the view is read from exactly what a server receives.
    const request = JSON.parse(JSON.stringify(api.wire.request(messages, tools, options))) as Record<string, unknown>
    const view = withReplyLimit(api.format.view(request), request)
    let outcome = this.cursor.answer(view)
    for (let retries = this.options.maxRetries ?? 2; retries > 0 && willRetry(outcome); retries--)
      outcome = this.cursor.answer(view)
    if (outcome.kind === 'http_error') {
      yield {
        error: httpStatusError(outcome.status, httpErrorBody(api.format, outcome.status, outcome.body).text, CONTEXT),
        type: 'error',
      }
      return
    }

    if (outcome.kind === 'error_body') {
      yield {error: replyError(api.format.errorBody(outcome.error), CONTEXT), type: 'error'}
      return
    }

    const {delayMs} = outcome.reply
    for await (const event of decodeStream(
      paced(api.format.stream(outcome.reply, request), delayMs, signal),
      api.wire.streamDecoder(CONTEXT),
    )) {
      if (signal?.aborted) return
      yield event
    }
  }
}

/** The replay client for a script file's path or a script. */
export async function createScriptedClient(
  source: ScriptSource,
  options: ScriptedClientOptions = {},
): Promise<ScriptedApiClient> {
  return new ScriptedApiClient(await loadScript(source), options)
}

/** The openai client's rule: `x-should-retry` when the server sends it, else the status. */
function willRetry(outcome: Outcome): boolean {
  if (outcome.kind !== 'http_error') return false
  const header = outcome.headers['x-should-retry']
  return header === undefined ? isRetryableStatus(outcome.status) : header === 'true'
}

async function* paced(events: string[], delayMs: number, signal: AbortSignal | undefined): AsyncGenerator<string> {
  for (const event of events) {
    if (delayMs > 0) await sleep(delayMs, undefined, {signal}).catch(() => {})
    if (signal?.aborted) return
    yield event
  }
}
