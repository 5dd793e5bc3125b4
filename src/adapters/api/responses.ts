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

const responsesRequest =
  (promptCacheKey: string | undefined): RequestBuilder<OpenAI.Responses.ResponseCreateParamsStreaming> =>
  (messages, tools, options) => {
    const [first] = messages
    const instructions = first?.role === 'system' ? first.content : undefined
    const conversation = instructions === undefined ? messages : messages.slice(1)
    return {
      input: withToolImages(conversation, inputItems, (images) => imageInput('', images)),
      model: options.model,
      ...(instructions !== undefined && {instructions}),
      ...(tools.length > 0 && {
        tools: tools.map((tool) => ({
          description: tool.description,
          name: tool.name,
          parameters: tool.inputSchema,
          strict: false,
          type: 'function' as const,
        })),
      }),
      ...(options.maxTokens !== undefined && {max_output_tokens: options.maxTokens}),
      ...(promptCacheKey !== undefined && {prompt_cache_key: promptCacheKey}),
      store: false,
      stream: true,
    }
  }

/**
 * `POST /responses`. The conversation goes whole with every request (`store: false`: nothing
 * is kept on the server, and no `previous_response_id`), a leading system message as
 * `instructions`; `promptCacheKey`, when given, as `prompt_cache_key`. The `raw` of
 * `message_stop` is the final `response` object.
 */
export function responsesWire(promptCacheKey?: string): WireApi {
  return {
    replyEvents(body, context) {
      return new ResponsesStreamDecoder(context).finish(body)
    },
    path: '/responses',
    request: responsesRequest(promptCacheKey),
    streamDecoder: (context) => new ResponsesStreamDecoder(context),
  }
}

export const responses: WireApi = responsesWire()

function inputItems(message: Message): OpenAI.Responses.ResponseInputItem[] {
  switch (message.role) {
    case 'system': {
      return [{content: message.content, role: message.role, type: 'message'}]
    }

    case 'user': {
      if (message.images) return [imageInput(message.content, message.images)]
      return [{content: message.content, role: 'user', type: 'message'}]
    }

    case 'assistant': {
      const text: OpenAI.Responses.ResponseInputItem[] =
        message.content === '' ? [] : [{content: message.content, role: 'assistant', type: 'message'}]
      const calls = message.toolCalls.map((call) => ({
        arguments: call.arguments,
        call_id: call.id,
        name: call.name,
        type: 'function_call' as const,
      }))
      return [...text, ...calls]
    }

    case 'tool': {
      const output = message.images ? `${message.content}\n${imagesFollow(message.images)}` : message.content
      return [{call_id: message.toolCallId, output, type: 'function_call_output'}]
    }
  }
}

/** A user message with images: its text (the tools' images get a line naming them), then each image. */
function imageInput(text: string, images: readonly ImagePart[]): OpenAI.Responses.ResponseInputItem {
  return {
    content: [
      {text: imageMessageText(text, images), type: 'input_text'},
      ...images.map((image) => ({
        detail: 'auto' as const,
        image_url: imageDataUrl(image),
        type: 'input_image' as const,
      })),
    ],
    role: 'user',
    type: 'message',
  }
}

/** For a failure the server gave no error object for. */
const FAILED = {message: 'The model server reported the response as failed.'}

interface PendingCall {
  callId: string
  name: string
  args: string
}

/**
 * Semantic events: `response.output_text.delta` carries text; a function call is announced by
 * `response.output_item.added`, its arguments come in `response.function_call_arguments.delta`
 * (and whole in `.done`), and `response.output_item.done` completes it; `response.completed`
 * (or `.incomplete`) ends the reply with the usage. There is no `[DONE]`. Failures come as an
 * `error` event or as `response.failed`.
 */
class ResponsesStreamDecoder implements StreamDecoder {
  /** Keyed by `output_index`, which every event about an item carries. */
  private readonly calls = new Map<number, PendingCall>()
  private readonly emittedCalls = new Set<string>()
  private sawText = false
  private done = false

  constructor(private readonly context: ErrorContext) {}

  frame(frame: SseFrame): StreamEvent[] {
    if (this.done) return []
    const event = parseFrameData(frame)
    if (!isRecord(event)) return this.fail(notJsonError(frame, this.context))
    if (isErrorReply(event)) return this.fail(replyError(event, this.context))
    const index = numberField(event, 'output_index') ?? -1
    switch (stringField(event, 'type') ?? frame.event) {
      case 'response.output_text.delta': {
        const text = stringField(event, 'delta')
        if (!text) return []
        this.sawText = true
        return [{text, type: 'content_delta'}]
      }

      case 'response.output_item.added': {
        if (stringField(event.item, 'type') === 'function_call') {
          this.calls.set(index, {
            args: stringField(event.item, 'arguments') ?? '',
            callId: stringField(event.item, 'call_id') ?? '',
            name: stringField(event.item, 'name') ?? '',
          })
        }

        return []
      }

      case 'response.function_call_arguments.delta': {
        const call = this.calls.get(index)
        if (call) call.args += stringField(event, 'delta') ?? ''
        return []
      }

      case 'response.function_call_arguments.done': {
        const call = this.calls.get(index)
        if (call) call.args = stringField(event, 'arguments') ?? call.args
        return []
      }

      case 'response.output_item.done': {
        return stringField(event.item, 'type') === 'function_call'
          ? this.completeCall(event.item, this.calls.get(index))
          : []
      }

      case 'response.completed':
      case 'response.incomplete': {
        return this.finish(event.response)
      }

      case 'response.failed': {
        const error = isRecord(event.response) ? event.response.error : undefined
        return this.fail(replyError(error ?? FAILED, this.context))
      }

      case 'error': {
        return this.fail(replyError(event, this.context))
      }

      default: {
        return []
      }
    }
  }

  end(): StreamEvent[] {
    return this.done ? [] : this.fail(streamEndedEarly(this.context))
  }

  /**
   * The closing events for the final `response` object. Output the stream did not announce
   * (a server that sends only the final object, or a JSON reply) is emitted from it here.
   */
  finish(response: unknown): StreamEvent[] {
    if (!isRecord(response) || !Array.isArray(response.output))
      return this.fail(unexpectedReply('a reply without an output list', this.context))
    if (response.status === 'failed') return this.fail(replyError(response.error ?? FAILED, this.context))
    const events: StreamEvent[] = []
    for (const item of response.output) {
      const type = stringField(item, 'type')
      if (type === 'function_call') events.push(...this.completeCall(item, undefined))
      if (type === 'message' && !this.sawText) {
        const text = arrayField(item, 'content')
          .map((part) => (stringField(part, 'type') === 'output_text' ? (stringField(part, 'text') ?? '') : ''))
          .join('')
        if (text) events.push({text, type: 'content_delta'})
      }
    }

    events.push(
      ...usageEvent(numberField(response.usage, 'input_tokens'), numberField(response.usage, 'output_tokens'), {
        read: numberField(isRecord(response.usage) ? response.usage.input_tokens_details : undefined, 'cached_tokens'),
      }),
    )
    events.push({raw: response, stopReason: this.stopReason(response), type: 'message_stop'})
    this.done = true
    return events
  }

  private completeCall(item: unknown, pending: PendingCall | undefined): StreamEvent[] {
    const callId = stringField(item, 'call_id') ?? pending?.callId ?? ''
    if (this.emittedCalls.has(callId)) return []
    this.emittedCalls.add(callId)
    const name = stringField(item, 'name') ?? pending?.name ?? ''
    return [
      {call: toolCallRequest(callId, name, stringField(item, 'arguments') ?? pending?.args ?? ''), type: 'tool_use'},
    ]
  }

  private stopReason(response: Record<string, unknown>): StopReason {
    if (response.status === 'incomplete') {
      return stringField(response.incomplete_details, 'reason') === 'max_output_tokens' ? 'max_tokens' : 'other'
    }

    return this.emittedCalls.size > 0 ? 'tool_use' : 'end_turn'
  }

  private fail(error: ModelError): StreamEvent[] {
    this.done = true
    return [{error, type: 'error'}]
  }
}
