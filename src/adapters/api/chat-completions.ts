import type {ImagePart} from '@hanzo-dev/sdk'
import {isRecord} from '@hanzo-dev/sdk/settings'
import type OpenAI from 'openai'

import type {Message, ModelError, StopReason, StreamEvent} from '../../core/agent/types.js'
import type {SseFrame} from '../../core/protocol/sse-frame-buffer.js'
import {imageDataUrl, imageMessageText, imagesFollow, withToolImages} from './image-parts.js'
import {type ErrorContext, isErrorReply, replyError, streamEndedEarly, unexpectedReply} from './model-errors.js'
import {toolCallRequest} from './tool-call.js'
import {
  arrayField,
  notJsonError,
  numberField,
  parseFrameData,
  type RequestBuilder,
  type StreamDecoder,
  stringField,
  usageEvent,
  type WireApi,
} from './wire-api.js'

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam

/** The request's output limit: `max_tokens` for compatible servers, `max_completion_tokens` for OpenAI's own API. */
type OutputLimitField = 'max_tokens' | 'max_completion_tokens'

function chatRequest(
  limitField: OutputLimitField,
  promptCacheKey: string | undefined,
): RequestBuilder<OpenAI.Chat.ChatCompletionCreateParamsStreaming> {
  return (messages, tools, options) => ({
    messages: withToolImages(
      messages,
      (message) => [chatMessage(message)],
      (images) => imageMessage('', images),
    ),
    model: options.model,
    ...(tools.length > 0 && {
      tools: tools.map((tool) => ({
        function: {description: tool.description, name: tool.name, parameters: tool.inputSchema},
        type: 'function' as const,
      })),
    }),
    ...(options.maxTokens !== undefined && {[limitField]: options.maxTokens}),
    ...(promptCacheKey !== undefined && {prompt_cache_key: promptCacheKey}),
    stream: true,
    stream_options: {include_usage: true},
  })
}

function chatWire(limitField: OutputLimitField, promptCacheKey?: string): WireApi {
  return {
    replyEvents: completionEvents,
    path: '/chat/completions',
    request: chatRequest(limitField, promptCacheKey),
    streamDecoder: (context) => new ChatStreamDecoder(context),
  }
}

/**
 * `POST /chat/completions`, the API every OpenAI-compatible server speaks (Ollama, vLLM,
 * llama.cpp, LM Studio, gateways). The output limit goes as `max_tokens`, the field those
 * servers read. The `raw` of `message_stop` is the array of chunks as received (or the whole
 * completion when the server did not stream).
 */
export const chatCompletions: WireApi = chatWire('max_tokens')

/**
 * The chat completions API as `baseURL` reads it: api.openai.com has replaced `max_tokens` by
 * `max_completion_tokens`, and its reasoning models refuse the old field. `promptCacheKey`, when
 * given, goes as `prompt_cache_key` (see `promptCacheKey` in openai-client.ts for where).
 */
export function chatCompletionsFor(baseURL: string, promptCacheKey?: string): WireApi {
  return chatWire(isOpenAIHost(baseURL) ? 'max_completion_tokens' : 'max_tokens', promptCacheKey)
}

/** Whether `baseURL` is OpenAI's own API. */
export function isOpenAIHost(baseURL: string): boolean {
  return URL.canParse(baseURL) && new URL(baseURL).hostname === 'api.openai.com'
}

function chatMessage(message: Message): ChatMessage {
  switch (message.role) {
    case 'system': {
      return {content: message.content, role: message.role}
    }

    case 'user': {
      return message.images ? imageMessage(message.content, message.images) : {content: message.content, role: 'user'}
    }

    case 'assistant': {
      if (message.toolCalls.length === 0) return {content: message.content, role: 'assistant'}
      return {
        // null, not "", beside tool calls: the API's own form of "no text".
        content: message.content === '' ? null : message.content,
        role: 'assistant',
        tool_calls: message.toolCalls.map((call) => ({
          function: {arguments: call.arguments, name: call.name},
          id: call.id,
          type: 'function' as const,
        })),
      }
    }

    case 'tool': {
      const content = message.images ? `${message.content}\n${imagesFollow(message.images)}` : message.content
      return {content, role: 'tool', tool_call_id: message.toolCallId}
    }
  }
}

/** A user message with images: its text (the tools' images get a line naming them), then each image. */
function imageMessage(text: string, images: readonly ImagePart[]): ChatMessage {
  return {
    content: [
      {text: imageMessageText(text, images), type: 'text'},
      ...images.map((image) => ({image_url: {url: imageDataUrl(image)}, type: 'image_url' as const})),
    ],
    role: 'user',
  }
}

interface PendingCall {
  id: string
  name: string
  args: string
}

/**
 * Chunks carry text deltas and tool-call fragments keyed by `index` (the id and name come
 * once, the arguments in pieces); a chunk with a `finish_reason` completes the calls; with
 * `stream_options.include_usage` a last chunk with empty `choices` carries the usage; then
 * `data: [DONE]`. Servers that end after the finish reason without `[DONE]` are accepted.
 */
class ChatStreamDecoder implements StreamDecoder {
  private readonly chunks: unknown[] = []
  private readonly calls = new Map<number, PendingCall>()
  private sawCalls = false
  private finishReason: string | undefined
  private usage: StreamEvent[] = []
  private done = false

  constructor(private readonly context: ErrorContext) {}

  frame(frame: SseFrame): StreamEvent[] {
    if (this.done) return []
    if (frame.data === '[DONE]') return this.close()
    const chunk = parseFrameData(frame)
    if (frame.event === 'error' || isErrorReply(chunk)) return this.fail(replyError(chunk ?? frame.data, this.context))
    if (!isRecord(chunk)) return this.fail(notJsonError(frame, this.context))
    this.chunks.push(chunk)
    if (isRecord(chunk.usage)) this.usage = chatUsage(chunk.usage)
    const choice = arrayField(chunk, 'choices')[0]
    const delta = isRecord(choice) ? choice.delta : undefined
    const events: StreamEvent[] = []
    const text = stringField(delta, 'content')
    if (text) events.push({text, type: 'content_delta'})
    arrayField(delta, 'tool_calls').forEach((fragment, position) => this.addFragment(fragment, position))
    const finish = stringField(choice, 'finish_reason')
    if (finish) {
      this.finishReason = finish
      events.push(...this.completeCalls())
    }

    return events
  }

  end(): StreamEvent[] {
    if (this.done) return []
    return this.finishReason === undefined ? this.fail(streamEndedEarly(this.context)) : this.close()
  }

  private addFragment(fragment: unknown, position: number): void {
    // Servers that send each call whole sometimes leave out `index`; its place in the array stands in.
    const index = numberField(fragment, 'index') ?? position
    const call = this.calls.get(index) ?? {args: '', id: '', name: ''}
    const fn = isRecord(fragment) ? fragment.function : undefined
    // Some servers repeat the id and name in every fragment: only the arguments accumulate.
    call.id ||= stringField(fragment, 'id') ?? ''
    call.name ||= stringField(fn, 'name') ?? ''
    call.args += stringField(fn, 'arguments') ?? ''
    this.calls.set(index, call)
    this.sawCalls = true
  }

  private completeCalls(): StreamEvent[] {
    const events = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      // A server that leaves out ids would leave the results with nothing to answer to.
      .map(([index, call]): StreamEvent => ({
        call: toolCallRequest(call.id || `call_${index}`, call.name, call.args),
        type: 'tool_use',
      }))
    this.calls.clear()
    return events
  }

  private close(): StreamEvent[] {
    const events = [...this.completeCalls(), ...this.usage]
    events.push({raw: this.chunks, stopReason: stopReason(this.finishReason, this.sawCalls), type: 'message_stop'})
    this.done = true
    return events
  }

  private fail(error: ModelError): StreamEvent[] {
    this.done = true
    return [{error, type: 'error'}]
  }
}

/** The events of a whole `chat.completion` object. */
function completionEvents(body: unknown, context: ErrorContext): StreamEvent[] {
  const choice = arrayField(body, 'choices')[0]
  const message = isRecord(choice) ? choice.message : undefined
  if (!isRecord(message))
    return [{error: unexpectedReply('a JSON body without choices[0].message', context), type: 'error'}]
  const events: StreamEvent[] = []
  const text = stringField(message, 'content')
  if (text) events.push({text, type: 'content_delta'})
  const calls = arrayField(message, 'tool_calls')
  for (const call of calls) {
    const fn = isRecord(call) ? call.function : undefined
    events.push({
      call: toolCallRequest(
        stringField(call, 'id') ?? '',
        stringField(fn, 'name') ?? '',
        stringField(fn, 'arguments') ?? '',
      ),
      type: 'tool_use',
    })
  }

  events.push(...chatUsage(isRecord(body) ? body.usage : undefined))
  events.push({
    raw: body,
    stopReason: stopReason(stringField(choice, 'finish_reason'), calls.length > 0),
    type: 'message_stop',
  })
  return events
}

function chatUsage(usage: unknown): StreamEvent[] {
  const cached = numberField(isRecord(usage) ? usage.prompt_tokens_details : undefined, 'cached_tokens')
  return usageEvent(numberField(usage, 'prompt_tokens'), numberField(usage, 'completion_tokens'), {read: cached})
}

/**
 * `length` wins (a call cut short is not a call to run); otherwise tool calls mean `tool_use`
 * whatever the reason says: some servers (older Ollama) send `stop` with tool calls.
 */
function stopReason(finishReason: string | undefined, hadCalls: boolean): StopReason {
  if (finishReason === 'length') return 'max_tokens'
  if (hadCalls || finishReason === 'tool_calls' || finishReason === 'function_call') return 'tool_use'
  if (finishReason === undefined || finishReason === 'stop') return 'end_turn'
  return 'other'
}
