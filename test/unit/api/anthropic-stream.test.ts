import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {AnthropicStreamDecoder, messageEvents} from '../../../src/adapters/api/anthropic-stream.js'
import {decodeStream} from '../../../src/adapters/api/decode-stream.js'
import {ModelError, type StreamEvent} from '../../../src/core/agent/types.js'
import {chunkings, splitAt} from '../../helpers/chunking.js'

const event = (type: string, fields: Record<string, unknown> = {}) =>
  `event: ${type}\ndata: ${JSON.stringify({type, ...fields})}\n\n`
const start = (index: number, block: Record<string, unknown>) =>
  event('content_block_start', {content_block: block, index})
const delta = (index: number, fields: Record<string, unknown>) => event('content_block_delta', {delta: fields, index})
const stop = (index: number) => event('content_block_stop', {index})

const MESSAGE = {
  content: [],
  id: 'msg_01',
  model: 'claude-sonnet-4-5',
  role: 'assistant',
  stop_reason: null,
  stop_sequence: null,
  type: 'message',
  usage: {cache_creation_input_tokens: 20, cache_read_input_tokens: 100, input_tokens: 12, output_tokens: 1},
}

/** Thinking, text, two tool calls (one without arguments), as the API streams them. */
const STREAM = [
  event('message_start', {message: MESSAGE}),
  start(0, {signature: '', thinking: '', type: 'thinking'}),
  event('ping'),
  delta(0, {thinking: 'Read both', type: 'thinking_delta'}),
  delta(0, {thinking: ' files. 😀', type: 'thinking_delta'}),
  delta(0, {signature: 'RXVTaWduZWQ=', type: 'signature_delta'}),
  stop(0),
  start(1, {text: '', type: 'text'}),
  delta(1, {text: 'Reading ', type: 'text_delta'}),
  delta(1, {text: 'both.', type: 'text_delta'}),
  stop(1),
  start(2, {id: 'toolu_a', input: {}, name: 'fs_read', type: 'tool_use'}),
  delta(2, {partial_json: '', type: 'input_json_delta'}),
  delta(2, {partial_json: '{"path": "a', type: 'input_json_delta'}),
  delta(2, {partial_json: '.ts"}', type: 'input_json_delta'}),
  stop(2),
  start(3, {id: 'toolu_b', input: {}, name: 'fs_list', type: 'tool_use'}),
  stop(3),
  event('message_delta', {delta: {stop_reason: 'tool_use', stop_sequence: null}, usage: {output_tokens: 42}}),
  event('message_stop'),
].join('')

const THINKING = {signature: 'RXVTaWduZWQ=', thinking: 'Read both files. 😀', type: 'thinking'}
const CALL_A = {arguments: '{"path": "a.ts"}', id: 'toolu_a', input: {path: 'a.ts'}, name: 'fs_read'}
const CALL_B = {arguments: '{}', id: 'toolu_b', input: {}, name: 'fs_list'}

async function decode(chunks: Array<string | Uint8Array>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = []
  for await (const item of decodeStream(chunks, new AnthropicStreamDecoder({}))) events.push(item)
  return events
}

describe('the Anthropic stream decoder', () => {
  it('streams text, completes each tool call at its block stop, and keeps thinking out of the text', async () => {
    const events = await decode([STREAM])
    expect(events.slice(0, -1)).toEqual([
      {text: 'Reading ', type: 'content_delta'},
      {text: 'both.', type: 'content_delta'},
      {call: CALL_A, type: 'tool_use'},
      {call: CALL_B, type: 'tool_use'},
      {type: 'usage', usage: {cacheReadTokens: 100, cacheWriteTokens: 20, inputTokens: 132, outputTokens: 42}},
    ])
    expect(events.at(-1)).toEqual({
      raw: {
        ...MESSAGE,
        content: [
          THINKING,
          {text: 'Reading both.', type: 'text'},
          {id: 'toolu_a', input: {path: 'a.ts'}, name: 'fs_read', type: 'tool_use'},
          {id: 'toolu_b', input: {}, name: 'fs_list', type: 'tool_use'},
        ],
        stop_reason: 'tool_use',
        usage: {...MESSAGE.usage, output_tokens: 42},
      },
      reasoning: [THINKING],
      stopReason: 'tool_use',
      type: 'message_stop',
    })
  })

  it('gives the same events on any chunking of the bytes (a delta per event, however the network cuts them)', async () => {
    const bytes = new TextEncoder().encode(STREAM)
    const expected = await decode([STREAM])
    for (const {chunks, how} of [...chunkings(STREAM), ...chunkings(bytes)]) {
      expect(await decode(chunks), how).toEqual(expected)
    }

    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({max: bytes.length}), {maxLength: 40}), async (cuts) => {
        expect(await decode(splitAt(bytes, cuts))).toEqual(expected)
      }),
      {numRuns: 200},
    )
  })

  it('keeps redacted thinking whole, and a reply without it carries no reasoning', async () => {
    const redacted = [
      event('message_start', {message: MESSAGE}),
      start(0, {data: 'ZW5jcnlwdGVk', type: 'redacted_thinking'}),
      stop(0),
      start(1, {text: '', type: 'text'}),
      delta(1, {text: 'Hi.', type: 'text_delta'}),
      stop(1),
      event('message_delta', {delta: {stop_reason: 'end_turn'}, usage: {output_tokens: 3}}),
      event('message_stop'),
    ].join('')
    expect((await decode([redacted])).at(-1)).toMatchObject({
      reasoning: [{data: 'ZW5jcnlwdGVk', type: 'redacted_thinking'}],
      stopReason: 'end_turn',
    })
    const plain = redacted.replace(start(0, {data: 'ZW5jcnlwdGVk', type: 'redacted_thinking'}) + stop(0), '')
    expect((await decode([plain])).at(-1)).not.toHaveProperty('reasoning')
  })

  it.each([
    ['max_tokens', 'max_tokens'],
    ['model_context_window_exceeded', 'max_tokens'],
    ['stop_sequence', 'end_turn'],
    ['refusal', 'other'],
  ])('maps the stop reason %s to %s', async (reason, expected) => {
    const stream =
      event('message_start', {message: MESSAGE}) +
      event('message_delta', {delta: {stop_reason: reason}, usage: {output_tokens: 1}}) +
      event('message_stop')
    expect((await decode([stream])).at(-1)).toMatchObject({stopReason: expected})
  })

  it('ends with the server message on an error event, after the text so far', async () => {
    const stream = [
      event('message_start', {message: MESSAGE}),
      start(0, {text: '', type: 'text'}),
      delta(0, {text: 'Par', type: 'text_delta'}),
      event('error', {error: {message: 'Overloaded', type: 'overloaded_error'}}),
      event('message_stop'),
    ].join('')
    const events = await decode([stream])
    expect(events).toHaveLength(2)
    expect(events[0]).toEqual({text: 'Par', type: 'content_delta'})
    const last = events[1]
    expect(last?.type === 'error' && last.error).toBeInstanceOf(ModelError)
    expect(last).toMatchObject({error: {code: 'overloaded_error', message: 'Overloaded'}, type: 'error'})
  })

  it('fails a stream that ends before message_stop, and one whose data is not JSON', async () => {
    expect((await decode([event('message_start', {message: MESSAGE})])).at(-1)).toMatchObject({
      error: {message: expect.stringMatching(/ended before the reply was complete/)},
    })
    expect((await decode(['event: message_start\ndata: {oops\n\n'])).at(-1)).toMatchObject({
      error: {message: expect.stringMatching(/not a JSON object/)},
    })
  })

  it('completes a tool call a proxy never stopped when the message stops', async () => {
    const stream =
      start(0, {id: 'toolu_x', input: {}, name: 'exec', type: 'tool_use'}) +
      delta(0, {partial_json: '{"command":"ls"}', type: 'input_json_delta'}) +
      event('message_stop')
    expect(await decode([stream])).toMatchObject([
      {call: {id: 'toolu_x', input: {command: 'ls'}}, type: 'tool_use'},
      {stopReason: 'tool_use', type: 'message_stop'},
    ])
  })
})

describe('a whole Anthropic message (a server that ignores stream: true)', () => {
  it('gives the events a stream of it would', async () => {
    const body = {
      ...MESSAGE,
      content: [
        THINKING,
        {text: 'Reading both.', type: 'text'},
        {id: 'toolu_a', input: {path: 'a.ts'}, name: 'fs_read', type: 'tool_use'},
      ],
      stop_reason: 'tool_use',
      usage: {input_tokens: 12, output_tokens: 42},
    }
    expect(messageEvents(body, {})).toEqual([
      {text: 'Reading both.', type: 'content_delta'},
      {call: {...CALL_A, arguments: '{"path":"a.ts"}'}, type: 'tool_use'},
      {type: 'usage', usage: {inputTokens: 12, outputTokens: 42}},
      {raw: body, reasoning: [THINKING], stopReason: 'tool_use', type: 'message_stop'},
    ])
  })

  it('fails on a body that is not a message', () => {
    expect(messageEvents({object: 'chat.completion'}, {})).toMatchObject([
      {error: {message: expect.stringMatching(/sent a JSON body that is not a message/)}},
    ])
  })
})
