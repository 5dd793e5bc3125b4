import {readFileSync} from 'node:fs'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {AnthropicStreamDecoder} from '../../../src/adapters/api/anthropic-stream.js'
import {decodeStream} from '../../../src/adapters/api/decode-stream.js'
import type {StreamEvent} from '../../../src/core/agent/types.js'
import {REPO_ROOT} from '../../helpers/cli.js'
import {withoutRaw} from '../../integration/api/helpers.js'

/** A recorded-format body (see test/fixtures/sse/README.md) through the decoder, chunk by chunk as it was sent. */
async function eventsOf(name: string): Promise<StreamEvent[]> {
  const chunks = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'sse', name), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as string)
  const events: StreamEvent[] = []
  for await (const event of decodeStream(chunks, new AnthropicStreamDecoder({endpoint: 'https://api.anthropic.com'})))
    events.push(event)
  return events
}

const text = (...pieces: string[]): StreamEvent[] => pieces.map((piece) => ({text: piece, type: 'content_delta'}))

describe('recorded-format Anthropic streams', () => {
  it('a text reply: a delta per text_delta, input counted with the cache reads (and those said apart), end_turn', async () => {
    const events = await eventsOf('anthropic-text.chunks.txt')
    expect(withoutRaw(events)).toEqual([
      ...text('Hello', '! How can', ' I help you', ' with your code today?'),
      {type: 'usage', usage: {cacheReadTokens: 2048, inputTokens: 2066, outputTokens: 14}},
      {stopReason: 'end_turn', type: 'message_stop'},
    ])
    expect(events.at(-1)).toMatchObject({
      raw: {
        content: [{text: 'Hello! How can I help you with your code today?', type: 'text'}],
        id: 'msg_01HCDu5LRGeP2o7s2xGmxyFA',
      },
    })
  })

  it('thinking, then text, then a tool call: the thinking only in reasoning and raw, signed', async () => {
    const events = await eventsOf('anthropic-thinking-tool-use.chunks.txt')
    expect(withoutRaw(events)).toEqual([
      ...text("I'll read the README", ' first.'),
      {
        call: {
          arguments: '{"path": "README.md"}',
          id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
          input: {path: 'README.md'},
          name: 'fs_read',
        },
        type: 'tool_use',
      },
      {type: 'usage', usage: {inputTokens: 1523, outputTokens: 96}},
      {stopReason: 'tool_use', type: 'message_stop'},
    ])
    const thinking = {
      signature: expect.stringMatching(/^EqQBCkYIBxgC/),
      thinking: "The user wants to know what's in the README. I should read it before answering.",
      type: 'thinking',
    }
    expect(events.at(-1)).toMatchObject({
      raw: {content: [thinking, {type: 'text'}, {type: 'tool_use'}], stop_reason: 'tool_use'},
      reasoning: [thinking],
    })
  })

  it('overloaded mid-reply: the text so far, then the server message and its type as the code', async () => {
    const events = await eventsOf('anthropic-overloaded.chunks.txt')
    expect(events).toHaveLength(3)
    expect(events.slice(0, 2)).toEqual(text('Let me', ' check'))
    expect(events[2]).toMatchObject({
      error: {
        code: 'overloaded_error',
        endpoint: 'https://api.anthropic.com',
        message: 'Overloaded',
        status: undefined,
      },
      type: 'error',
    })
  })
})
