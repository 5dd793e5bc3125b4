import {createHash} from 'node:crypto'

import {describe, expect, it} from 'vitest'

import {createAnthropicClient} from '../../../src/adapters/api/anthropic-client.js'
import {SseFrameBuffer} from '../../../src/core/protocol/sse-frame-buffer.js'
import type {Script} from '../../../src/testing/fake-model/script.js'
import {createScriptedClient} from '../../../src/testing/fake-model/scripted-client.js'
import {API_KEY, CALL, fakeModel, READ_FILE, replaySession} from './helpers.js'

const REQUEST = {max_tokens: 1024, messages: [{content: 'hi', role: 'user'}], model: 'fake-model', stream: true}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const init = {
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: {'anthropic-version': '2023-06-01', 'content-type': 'application/json', 'x-api-key': API_KEY, ...headers},
  }
  return fetch(`${url}/messages`, {...init, method: 'POST'})
}

async function events(response: Response): Promise<Array<{event: string | null; data: Record<string, unknown>}>> {
  const sse = new SseFrameBuffer()
  const frames = [...sse.feed(new Uint8Array(await response.arrayBuffer())), ...sse.end()]
  return frames.map((frame) => ({data: JSON.parse(frame.data) as Record<string, unknown>, event: frame.event}))
}

describe('the fake model speaking the Anthropic Messages API', () => {
  it('streams thinking (from a leading <think>), text and tool_use blocks, each event named in event: and type', async () => {
    const model = await fakeModel({
      turns: [
        {
          chunk_size: 6,
          text: '<think>Look first.</think>On it.',
          tool_calls: [{arguments: {path: 'a.ts'}, id: 'toolu_1', name: 'fs_read'}],
          usage: {input_tokens: 9, output_tokens: 4},
        },
      ],
    })
    const response = await post(model.url, REQUEST)
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const all = await events(response)
    expect(all.map(({data, event}) => [event, data.type])).toEqual(all.map(({event}) => [event, event]))
    expect(
      all.map(({data}) => (data.type === 'content_block_delta' ? (data.delta as {type: string}).type : data.type)),
    ).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'thinking_delta',
      'thinking_delta',
      'signature_delta',
      'content_block_stop',
      'content_block_start',
      'text_delta',
      'content_block_stop',
      'content_block_start',
      'input_json_delta',
      'input_json_delta',
      'input_json_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ])
    expect(all[0]?.data.message).toMatchObject({
      content: [],
      id: 'msg_fake_1',
      role: 'assistant',
      stop_reason: null,
      usage: {input_tokens: 9},
    })
    expect(all[10]?.data).toMatchObject({
      content_block: {id: 'toolu_1', input: {}, name: 'fs_read', type: 'tool_use'},
      index: 2,
    })
    expect(all.at(-2)?.data).toEqual({
      delta: {stop_reason: 'tool_use', stop_sequence: null},
      type: 'message_delta',
      usage: {output_tokens: 4},
    })
  })

  it('answers a request without stream: true with one message', async () => {
    const model = await fakeModel({
      turns: [
        {text: '<think>hm</think>Yes.', tool_calls: [{arguments: {path: 'a.ts'}, id: 'toolu_1', name: 'fs_read'}]},
      ],
    })
    expect(await (await post(model.url, {...REQUEST, stream: false})).json()).toMatchObject({
      content: [
        {signature: expect.any(String), thinking: 'hm', type: 'thinking'},
        {text: 'Yes.', type: 'text'},
        {id: 'toolu_1', input: {path: 'a.ts'}, name: 'fs_read', type: 'tool_use'},
      ],
      stop_reason: 'tool_use',
      type: 'message',
    })
  })

  it("sends errors in Anthropic's shape, typed by status; a 200 error body and a stream error keep the script's type", async () => {
    const model = await fakeModel({
      turns: [
        {status: 429},
        {body: {code: 'invalid_api_key', message: 'invalid x-api-key', type: 'invalid_request_error'}, status: 401},
        {error_body: {message: 'nope', type: 'invalid_request_error'}},
        {stream_error: {message: 'Overloaded', type: 'overloaded_error'}, text: 'par'},
        {body: 'upstream connect error', status: 503},
      ],
    })
    const limited = await post(model.url, REQUEST)
    expect([limited.status, limited.headers.get('retry-after-ms'), await limited.json()]).toEqual([
      429,
      '0',
      {error: {message: 'fake-model: scripted HTTP 429', type: 'rate_limit_error'}, type: 'error'},
    ])
    expect(await (await post(model.url, REQUEST)).json()).toEqual({
      error: {message: 'invalid x-api-key', type: 'authentication_error'},
      type: 'error',
    })
    const body = await post(model.url, REQUEST)
    expect([body.status, await body.json()]).toEqual([
      200,
      {error: {message: 'nope', type: 'invalid_request_error'}, type: 'error'},
    ])
    expect((await events(await post(model.url, REQUEST))).at(-1)).toEqual({
      data: {error: {message: 'Overloaded', type: 'overloaded_error'}, type: 'error'},
      event: 'error',
    })
    const plain = await post(model.url, REQUEST)
    expect([plain.status, plain.headers.get('content-type'), await plain.text()]).toEqual([
      503,
      'text/plain; charset=utf-8',
      'upstream connect error',
    ])
    const exhausted = await post(model.url, REQUEST)
    expect([exhausted.status, ((await exhausted.json()) as {error: {type: string}}).error.type]).toEqual([
      500,
      'api_error',
    ])
    const notJson = await post(model.url, '{')
    expect([notJson.status, await notJson.json()]).toEqual([
      400,
      {
        error: {message: 'fake-model: the request body is not a JSON object', type: 'invalid_request_error'},
        type: 'error',
      },
    ])
  })

  it('reads expectations from Anthropic bodies: system, users (not tool results), tool results, tools, the x-api-key', async () => {
    const hash = createHash('sha256').update(API_KEY).digest('hex')
    const model = await fakeModel({
      turns: [
        {
          expect: {
            authorization_sha256: hash,
            has_tool_result_for: 'fs_read',
            last_user_contains: 'fix a.ts',
            system_contains: 'terse',
            tool_result_contains: 'const a',
            tools_include: ['fs_read'],
          },
          text: 'met',
        },
        {expect: {last_user_contains: 'nothing like this'}, text: 'never'},
      ],
    })
    const request = {
      ...REQUEST,
      messages: [
        {content: [{text: 'fix a.ts', type: 'text'}], role: 'user'},
        {content: [{id: 'toolu_1', input: {path: 'a.ts'}, name: 'fs_read', type: 'tool_use'}], role: 'assistant'},
        {
          content: [{content: [{text: 'const a = 1', type: 'text'}], tool_use_id: 'toolu_1', type: 'tool_result'}],
          role: 'user',
        },
      ],
      system: [{text: 'Be terse.', type: 'text'}],
      tools: [{description: 'Read', input_schema: READ_FILE.inputSchema, name: 'fs_read'}],
    }
    expect((await post(model.url, request)).status).toBe(200)
    const failed = await post(model.url, request)
    expect(failed.status).toBe(400)
    expect(await failed.json()).toMatchObject({
      error: {
        message: expect.stringContaining('last_user_contains "nothing like this": the last user message is "fix a.ts"'),
        type: 'invalid_request_error',
      },
      type: 'error',
    })
    expect(model.requests[0]?.headers).toMatchObject({'x-api-key': '[redacted]'})
  })
})

/** A session's worth of turns: replies, retries, every kind of failure. */
const SCRIPT: Script = {
  turns: [
    {
      chunk_size: 3,
      expect: {last_user_contains: 'fix'},
      text: '<think>look first</think>Reading.',
      tool_calls: [{arguments: {path: 'a.ts'}, name: 'fs_read'}],
    },
    {status: 429},
    {expect: {has_tool_result_for: 'fs_read'}, text: 'Fixed.', usage: {input_tokens: 30, output_tokens: 2}},
    {tool_calls: [{arguments: '{"path": ', id: 'bad', name: 'fs_read'}], truncated: true},
    {body: {message: 'invalid x-api-key'}, status: 401},
    {error_body: {message: 'Try later.', type: 'overloaded_error'}},
    {stream_error: {message: 'cut'}, text: 'par'},
    {status: 500},
    {status: 500},
    {status: 500},
  ],
}

describe('the replay client over anthropic_messages', () => {
  it('yields the same events as the Anthropic client against the fake server', async () => {
    const model = await fakeModel(SCRIPT)
    const overHttp = await replaySession(createAnthropicClient({apiKey: API_KEY, baseURL: model.url}), 8)
    const replayed = await replaySession(await createScriptedClient(SCRIPT, {api: 'anthropic_messages'}), 8)
    expect(replayed).toEqual(overHttp)
    expect(overHttp.slice(2)).toMatchObject([
      [{call: {arguments: '{"path": ', id: 'bad', input: {}}}, {type: 'usage'}, {stopReason: 'max_tokens'}],
      [{code: 'authentication_error', message: 'invalid x-api-key', status: 401}],
      [{code: 'overloaded_error', message: 'Try later.'}],
      [{text: 'par'}, {code: 'api_error', message: 'cut'}],
      [{code: 'api_error', message: 'fake-model: scripted HTTP 500', status: 500}],
      [{code: 'api_error', message: expect.stringMatching(/script exhausted/), status: 500}],
    ])
    expect(overHttp[0]).toMatchObject([
      {text: 'Rea'},
      {text: 'din'},
      {text: 'g.'},
      {call: CALL, type: 'tool_use'},
      {type: 'usage'},
      {reasoning: [{thinking: 'look first'}]},
    ])
  })
})
