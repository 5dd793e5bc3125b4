import {isRecord} from '@hanzo-dev/sdk/settings'

import {contentText, emptyView} from './request-view.js'
import type {Reply} from './script-cursor.js'
import {deltas, FAKE_CREATED, type FakeWireFormat, openAIErrorBody, sse} from './wire-format.js'

/**
 * OpenAI chat completions: `chat.completion.chunk` events (the role first, then text and
 * tool-call fragments by `index`, a chunk with the `finish_reason`, the usage chunk with empty
 * `choices` when `stream_options.include_usage` asks for it, `data: [DONE]`), or a
 * `chat.completion` object. A `stream_error` is a `data: {"error": ...}` event with no `[DONE]`.
 */
export const chatFormat: FakeWireFormat = {
  errorBody: openAIErrorBody,

  json(reply) {
    return {
      choices: [
        {
          finish_reason: finishReason(reply),
          index: 0,
          logprobs: null,
          message: {
            content: reply.text === '' && reply.toolCalls.length > 0 ? null : reply.text,
            refusal: null,
            role: 'assistant',
            ...(reply.toolCalls.length > 0 && {
              tool_calls: reply.toolCalls.map((call) => ({
                function: {arguments: call.arguments, name: call.name},
                id: call.id,
                type: 'function',
              })),
            }),
          },
        },
      ],
      created: FAKE_CREATED,
      id: completionId(reply),
      model: reply.model,
      object: 'chat.completion',
      system_fingerprint: 'fp_fake',
      usage: usage(reply),
    }
  },

  stream(reply, request) {
    const includeUsage = isRecord(request.stream_options) && request.stream_options.include_usage === true
    const chunk = (
      delta: Record<string, unknown>,
      finish: string | null = null,
      choices = [{delta, finish_reason: finish, index: 0, logprobs: null}],
    ) =>
      sse({
        choices,
        created: FAKE_CREATED,
        id: completionId(reply),
        model: reply.model,
        object: 'chat.completion.chunk',
        system_fingerprint: 'fp_fake',
        ...(includeUsage && {usage: null}),
      })
    const events = [chunk({content: '', refusal: null, role: 'assistant'})]
    for (const text of deltas(reply.text, reply.chunkSize)) events.push(chunk({content: text}))
    reply.toolCalls.forEach((call, index) => {
      events.push(
        chunk({tool_calls: [{function: {arguments: '', name: call.name}, id: call.id, index, type: 'function'}]}),
      )
      for (const args of deltas(call.arguments, reply.chunkSize))
        events.push(chunk({tool_calls: [{function: {arguments: args}, index}]}))
    })
    if (reply.streamError) return [...events, sse({error: reply.streamError})]
    events.push(chunk({}, finishReason(reply)))
    if (includeUsage) {
      events.push(
        sse({
          choices: [],
          created: FAKE_CREATED,
          id: completionId(reply),
          model: reply.model,
          object: 'chat.completion.chunk',
          system_fingerprint: 'fp_fake',
          usage: usage(reply),
        }),
      )
    }

    events.push(sse('[DONE]'))
    return events
  },

  view(request) {
    const view = emptyView()
    const names = new Map<string, string>()
    for (const message of Array.isArray(request.messages) ? request.messages : []) {
      if (!isRecord(message)) continue
      const text = contentText(message.content)
      view.textLength += text.length
      if (message.role === 'system' || message.role === 'developer') view.system.push(text)
      if (message.role === 'user') view.users.push(text)
      for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
        const fn = isRecord(call) && isRecord(call.function) ? call.function : {}
        if (isRecord(call) && typeof call.id === 'string' && typeof fn.name === 'string') {
          names.set(call.id, fn.name)
          view.toolCalls.push(call.id)
        }

        if (typeof fn.arguments === 'string') view.textLength += fn.arguments.length
      }

      if (message.role === 'tool') {
        const callId = typeof message.tool_call_id === 'string' ? message.tool_call_id : ''
        view.toolResults.push({callId, content: text, name: names.get(callId)})
      }
    }

    for (const tool of Array.isArray(request.tools) ? request.tools : []) {
      if (isRecord(tool) && isRecord(tool.function) && typeof tool.function.name === 'string')
        view.tools.push(tool.function.name)
    }

    return view
  },
}

function completionId(reply: Reply): string {
  return `chatcmpl-fake-${reply.turn}`
}

function finishReason(reply: Reply): string {
  if (reply.truncated) return 'length'
  return reply.toolCalls.length > 0 ? 'tool_calls' : 'stop'
}

function usage(reply: Reply) {
  const {cache_read_tokens: cached, input_tokens: prompt, output_tokens: completion} = reply.usage
  return {
    completion_tokens: completion,
    prompt_tokens: prompt,
    prompt_tokens_details: {cached_tokens: cached},
    total_tokens: prompt + completion,
  }
}
