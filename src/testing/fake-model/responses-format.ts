import {isRecord} from '@hanzo-dev/sdk/settings'

import {contentText, emptyView} from './request-view.js'
import type {Reply} from './script-cursor.js'
import {deltas, FAKE_CREATED, type FakeWireFormat, openAIErrorBody, sse} from './wire-format.js'

/**
 * The OpenAI Responses API: `response.created`, `response.in_progress`, then per output item
 * `response.output_item.added`, its deltas (`response.output_text.delta` inside a content part,
 * or `response.function_call_arguments.delta` then `.done`) and `response.output_item.done`,
 * and last `response.completed` (or `response.incomplete` when truncated) with the usage; every
 * event names its type in `event:` and in `type`, with a `sequence_number`. A `stream_error`
 * sends the deltas without closing the items, then an `error` event.
 */
export const responsesFormat: FakeWireFormat = {
  errorBody: openAIErrorBody,

  json(reply) {
    return responseObject(reply, reply.truncated ? 'incomplete' : 'completed', outputItems(reply))
  },

  stream(reply) {
    let sequence = 0
    const event = (type: string, fields: Record<string, unknown>) =>
      sse({type, ...fields, sequence_number: sequence++}, type)
    const events = [
      event('response.created', {response: responseObject(reply, 'in_progress', [])}),
      event('response.in_progress', {response: responseObject(reply, 'in_progress', [])}),
    ]
    const open = !reply.streamError
    const items = outputItems(reply)
    items.forEach((item, outputIndex) => {
      if (item.type === 'message') {
        const itemId = item.id
        const part = {annotations: [], text: '', type: 'output_text'}
        events.push(
          event('response.output_item.added', {
            item: {...item, content: [], status: 'in_progress'},
            output_index: outputIndex,
          }),
          event('response.content_part.added', {content_index: 0, item_id: itemId, output_index: outputIndex, part}),
          ...deltas(reply.text, reply.chunkSize).map((delta) =>
            event('response.output_text.delta', {
              content_index: 0,
              delta,
              item_id: itemId,
              logprobs: [],
              output_index: outputIndex,
            }),
          ),
        )
        if (open) {
          events.push(
            event('response.output_text.done', {
              content_index: 0,
              item_id: itemId,
              logprobs: [],
              output_index: outputIndex,
              text: reply.text,
            }),
            event('response.content_part.done', {
              content_index: 0,
              item_id: itemId,
              output_index: outputIndex,
              part: {...part, text: reply.text},
            }),
            event('response.output_item.done', {item, output_index: outputIndex}),
          )
        }
      } else {
        events.push(
          event('response.output_item.added', {
            item: {...item, arguments: '', status: 'in_progress'},
            output_index: outputIndex,
          }),
          ...deltas(String(item.arguments), reply.chunkSize).map((delta) =>
            event('response.function_call_arguments.delta', {delta, item_id: item.id, output_index: outputIndex}),
          ),
        )
        if (open) {
          events.push(
            event('response.function_call_arguments.done', {
              arguments: item.arguments,
              item_id: item.id,
              name: item.name,
              output_index: outputIndex,
            }),
            event('response.output_item.done', {item, output_index: outputIndex}),
          )
        }
      }
    })
    if (reply.streamError) {
      const {code = null, message, param = null, ...rest} = reply.streamError
      return [...events, event('error', {...rest, code, message, param})]
    }

    const status = reply.truncated ? 'incomplete' : 'completed'
    events.push(event(`response.${status}`, {response: responseObject(reply, status, items)}))
    return events
  },

  view(request) {
    const view = emptyView()
    if (typeof request.instructions === 'string') {
      view.system.push(request.instructions)
      view.textLength += request.instructions.length
    }

    const names = new Map<string, string>()
    const input =
      typeof request.input === 'string'
        ? [{content: request.input, role: 'user'}]
        : Array.isArray(request.input)
          ? request.input
          : []
    for (const item of input) {
      if (!isRecord(item)) continue
      if (item.type === 'function_call') {
        if (typeof item.call_id === 'string' && typeof item.name === 'string') {
          names.set(item.call_id, item.name)
          view.toolCalls.push(item.call_id)
        }

        if (typeof item.arguments === 'string') view.textLength += item.arguments.length
      } else if (item.type === 'function_call_output') {
        const callId = typeof item.call_id === 'string' ? item.call_id : ''
        const output = contentText(item.output)
        view.textLength += output.length
        view.toolResults.push({callId, content: output, name: names.get(callId)})
      } else {
        const text = contentText(item.content)
        view.textLength += text.length
        if (item.role === 'system' || item.role === 'developer') view.system.push(text)
        if (item.role === 'user') view.users.push(text)
      }
    }

    for (const tool of Array.isArray(request.tools) ? request.tools : []) {
      if (isRecord(tool) && tool.type === 'function' && typeof tool.name === 'string') view.tools.push(tool.name)
    }

    return view
  },
}

type OutputItem =
  | {id: string; type: 'message'; status: string; role: 'assistant'; content: unknown[]}
  | {id: string; type: 'function_call'; status: string; call_id: string; name: string; arguments: string}

/** A message item when there is text (or nothing else), then one item per tool call. */
function outputItems(reply: Reply): OutputItem[] {
  const items: OutputItem[] = []
  if (reply.text !== '' || reply.toolCalls.length === 0) {
    items.push({
      content: [{annotations: [], text: reply.text, type: 'output_text'}],
      id: `msg_fake_${reply.turn}`,
      role: 'assistant',
      status: 'completed',
      type: 'message',
    })
  }

  reply.toolCalls.forEach((call, index) => {
    items.push({
      arguments: call.arguments,
      call_id: call.id,
      id: `fc_fake_${reply.turn}_${index + 1}`,
      name: call.name,
      status: 'completed',
      type: 'function_call',
    })
  })
  return items
}

function responseObject(reply: Reply, status: string, output: OutputItem[]) {
  const {cache_read_tokens: cached, input_tokens: input, output_tokens: outputTokens} = reply.usage
  return {
    created_at: FAKE_CREATED,
    error: null,
    id: `resp_fake_${reply.turn}`,
    incomplete_details: status === 'incomplete' ? {reason: 'max_output_tokens'} : null,
    model: reply.model,
    object: 'response',
    output,
    status,
    usage:
      status === 'in_progress'
        ? null
        : {
            input_tokens: input,
            input_tokens_details: {cached_tokens: cached},
            output_tokens: outputTokens,
            output_tokens_details: {reasoning_tokens: 0},
            total_tokens: input + outputTokens,
          },
  }
}
