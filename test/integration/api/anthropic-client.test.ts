import {createHash} from 'node:crypto'
import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'

import {describe, expect, it} from 'vitest'

import {type AnthropicClientOptions, createAnthropicClient} from '../../../src/adapters/api/anthropic-client.js'
import {DEFAULT_MAX_TOKENS} from '../../../src/adapters/api/anthropic-request.js'
import {type Message, ModelError} from '../../../src/core/agent/types.js'
import type {FakeModel} from '../../../src/testing/fake-model/server.js'
import {API_KEY, collect, errorOf, fakeModel, LIST_DIR, rawServer, READ_FILE, withoutRaw} from './helpers.js'

function anthropic(model: FakeModel, options: Partial<AnthropicClientOptions> = {}) {
  return createAnthropicClient({apiKey: API_KEY, baseURL: model.url, ...options})
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

describe('the Anthropic client against the fake model', () => {
  it('streams text as deltas, then the usage, then message_stop, from POST /v1/messages', async () => {
    const model = await fakeModel({
      turns: [
        {
          chunk_size: 4,
          expect: {authorization_sha256: sha256(API_KEY)},
          text: 'Hello, world!',
          usage: {input_tokens: 12, output_tokens: 5},
        },
      ],
    })
    const events = await collect(anthropic(model), [{content: 'hi', role: 'user'}], [READ_FILE])
    expect(withoutRaw(events)).toEqual([
      {text: 'Hell', type: 'content_delta'},
      {text: 'o, w', type: 'content_delta'},
      {text: 'orld', type: 'content_delta'},
      {text: '!', type: 'content_delta'},
      {type: 'usage', usage: {inputTokens: 12, outputTokens: 5}},
      {stopReason: 'end_turn', type: 'message_stop'},
    ])
    expect(events.at(-1)).toMatchObject({
      raw: {content: [{text: 'Hello, world!', type: 'text'}], id: 'msg_fake_1', type: 'message'},
    })
    const [request] = model.requests
    expect(request).toMatchObject({
      headers: {'anthropic-version': '2023-06-01', 'x-api-key': '[redacted]'},
      method: 'POST',
      path: '/v1/messages',
    })
    expect(request?.headers).not.toHaveProperty('authorization')
    expect(request?.body).toMatchObject({
      max_tokens: DEFAULT_MAX_TOKENS,
      model: 'fake-model',
      stream: true,
      tools: [{input_schema: READ_FILE.inputSchema, name: 'fs_read'}],
    })
  })

  it('sends an OAuth access token as a bearer token, and reaches /v1/messages whether the base URL ends in /v1 or not', async () => {
    const model = await fakeModel({
      turns: [{expect: {authorization_sha256: sha256('oauth-access')}, text: 'a'}, {text: 'b'}],
    })
    await collect(anthropic(model, {apiKey: 'oauth-access', authScheme: 'bearer'}))
    await collect(anthropic(model, {baseURL: model.url.replace(/\/v1$/, '/')}))
    expect(model.requests.map((request) => request.path)).toEqual(['/v1/messages', '/v1/messages'])
    expect(model.requests[0]?.headers).toMatchObject({authorization: 'Bearer [redacted]'})
    expect(model.requests[0]?.headers).not.toHaveProperty('x-api-key')
  })

  it('assembles parallel tool calls from input_json_delta fragments', async () => {
    const calls = [
      {arguments: {path: 'src/index.ts'}, id: 'toolu_a', name: 'fs_read'},
      {arguments: {path: 'src'}, id: 'toolu_b', name: 'fs_list'},
    ]
    const model = await fakeModel({turns: [{chunk_size: 3, text: 'Looking.', tool_calls: calls}]})
    const events = await collect(anthropic(model), undefined, [READ_FILE, LIST_DIR])
    expect(withoutRaw(events).filter((event) => event.type !== 'content_delta')).toEqual([
      {
        call: {arguments: '{"path":"src/index.ts"}', id: 'toolu_a', input: {path: 'src/index.ts'}, name: 'fs_read'},
        type: 'tool_use',
      },
      {call: {arguments: '{"path":"src"}', id: 'toolu_b', input: {path: 'src'}, name: 'fs_list'}, type: 'tool_use'},
      expect.objectContaining({type: 'usage'}),
      {stopReason: 'tool_use', type: 'message_stop'},
    ])
  })

  it('keeps thinking out of the text, and sends it back signed, first, with the tool calls it came with', async () => {
    const model = await fakeModel({
      turns: [
        {
          text: '<think>Read it first.</think>Reading.',
          tool_calls: [{arguments: {path: 'a.ts'}, id: 'toolu_1', name: 'fs_read'}],
        },
        {expect: {has_tool_result_for: 'toolu_1'}, text: 'Done.'},
      ],
    })
    const client = anthropic(model, {thinkingBudgetTokens: 2048})
    const history: Message[] = [{content: 'read a.ts', role: 'user'}]
    const events = await collect(client, history, [READ_FILE])
    expect(events.filter((event) => event.type === 'content_delta')).toEqual([
      {text: 'Reading.', type: 'content_delta'},
    ])
    const stop = events.at(-1)
    if (stop?.type !== 'message_stop') throw new Error(`no message_stop: ${JSON.stringify(events)}`)
    const thinking = {signature: expect.any(String), thinking: 'Read it first.', type: 'thinking'}
    expect(stop.reasoning).toEqual([thinking])
    expect(stop.raw).toMatchObject({content: [thinking, {text: 'Reading.'}, {id: 'toolu_1', type: 'tool_use'}]})

    const calls = events.flatMap((event) => (event.type === 'tool_use' ? [event.call] : []))
    history.push({content: 'Reading.', reasoning: stop.reasoning, role: 'assistant', toolCalls: calls})
    history.push({content: 'const a = 1', isError: false, role: 'tool', toolCallId: 'toolu_1', toolName: 'fs_read'})
    expect(withoutRaw(await collect(client, history, [READ_FILE]))).toContainEqual({
      text: 'Done.',
      type: 'content_delta',
    })
    expect(model.requests[1]?.body).toMatchObject({
      max_tokens: DEFAULT_MAX_TOKENS + 2048,
      messages: [
        {role: 'user'},
        {
          content: [stop.reasoning?.[0], {text: 'Reading.', type: 'text'}, {id: 'toolu_1', type: 'tool_use'}],
          role: 'assistant',
        },
        {
          content: [{content: 'const a = 1', is_error: false, tool_use_id: 'toolu_1', type: 'tool_result'}],
          role: 'user',
        },
      ],
      thinking: {budget_tokens: 2048, type: 'enabled'},
    })
  })

  it('reports a truncated reply as max_tokens', async () => {
    const model = await fakeModel({turns: [{text: 'It was a dark', truncated: true}]})
    expect((await collect(anthropic(model))).at(-1)).toMatchObject({stopReason: 'max_tokens', type: 'message_stop'})
  })

  it('ends quietly when the signal aborts mid-stream', async () => {
    const model = await fakeModel({turns: [{chunk_size: 1, delay_ms: 5, text: 'slow reply'}]})
    const controller = new AbortController()
    const seen: string[] = []
    for await (const event of anthropic(model).sendMessage([{content: 'hi', role: 'user'}], [], {
      model: 'm',
      signal: controller.signal,
    })) {
      seen.push(event.type)
      controller.abort()
    }

    expect(seen).toEqual(['content_delta'])
  })
})

describe('Anthropic errors and retries (the OpenAI client rules)', () => {
  it.each([
    [401, 'invalid x-api-key', 'authentication_error'],
    [402, 'Your credit balance is too low to access the Anthropic API.', 'billing_error'],
    [403, 'Your API key does not have permission to use the specified resource.', 'permission_error'],
  ])('fails at once on %i with the server message, without a retry', async (status, message, code) => {
    const model = await fakeModel({turns: [{body: {message}, status}, {text: 'never sent'}]})
    const error = errorOf(await collect(anthropic(model)))
    expect(error).toBeInstanceOf(ModelError)
    expect(error).toMatchObject({code, message, status})
    expect(error.endpoint).toBe(`http://127.0.0.1:${new URL(model.url).port}/v1`)
    expect(model.requests).toHaveLength(1)
  })

  it('waits the retry-after of a 429, then streams the reply that follows', async () => {
    const model = await fakeModel({turns: [{headers: {'retry-after': '0'}, status: 429}, {text: 'recovered'}]})
    expect(withoutRaw(await collect(anthropic(model)))).toEqual([
      {text: 'recovered', type: 'content_delta'},
      expect.objectContaining({type: 'usage'}),
      {stopReason: 'end_turn', type: 'message_stop'},
    ])
    expect(model.requests).toHaveLength(2)
  })

  it('retries a 500 and a 529 (overloaded), and gives up after maxRetries with the server message', async () => {
    const recovering = await fakeModel({turns: [{status: 500}, {status: 529}, {text: 'ok'}]})
    expect(withoutRaw(await collect(anthropic(recovering)))).toContainEqual({text: 'ok', type: 'content_delta'})
    expect(recovering.requests).toHaveLength(3)

    const overloaded = await fakeModel({turns: [{body: {message: 'Overloaded'}, status: 529}, {status: 529}]})
    expect(errorOf(await collect(anthropic(overloaded, {maxRetries: 1})))).toMatchObject({
      code: 'overloaded_error',
      message: 'fake-model: scripted HTTP 529',
      status: 529,
    })
    expect(overloaded.requests).toHaveLength(2)
  })

  it('ends with the server message on an error event mid-stream, after the text so far', async () => {
    const model = await fakeModel({
      turns: [{stream_error: {message: 'Overloaded', type: 'overloaded_error'}, text: 'par'}],
    })
    const events = await collect(anthropic(model))
    expect(events[0]).toEqual({text: 'par', type: 'content_delta'})
    expect(events).toHaveLength(2)
    expect(errorOf(events)).toMatchObject({code: 'overloaded_error', message: 'Overloaded', status: undefined})
  })

  it('fails with the server message when a 200 body is an error', async () => {
    const model = await fakeModel({
      turns: [
        {error_body: {message: 'prompt is too long: 210000 tokens > 200000 maximum', type: 'invalid_request_error'}},
      ],
    })
    expect(errorOf(await collect(anthropic(model)))).toMatchObject({
      code: 'invalid_request_error',
      message: 'prompt is too long: 210000 tokens > 200000 maximum',
    })
  })

  it('never shows the key, even when the server echoes it', async () => {
    const model = await fakeModel({turns: [{body: {message: `invalid x-api-key: ${API_KEY}`}, status: 401}]})
    const error = errorOf(await collect(anthropic(model)))
    expect(error.message).toBe('invalid x-api-key: [redacted]')
  })

  it('names an unreachable server with a hint', async () => {
    const server = createServer()
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const {port} = server.address() as AddressInfo
    await new Promise((resolve) => server.close(resolve))
    const error = errorOf(
      await collect(createAnthropicClient({apiKey: API_KEY, baseURL: `http://127.0.0.1:${port}`, maxRetries: 0})),
    )
    expect(error).toMatchObject({code: 'ECONNREFUSED', endpoint: `http://127.0.0.1:${port}/`})
    expect(error.message).toMatch(
      /Could not connect to the model server at http:\/\/127\.0\.0\.1:\d+\/: connection refused\. Is the server running\? Check base_url/,
    )
  })

  it('says an HTML page is not a Messages API reply', async () => {
    const url = await rawServer((_request, response) =>
      response.writeHead(200, {'content-type': 'text/html'}).end('<html>login</html>'),
    )
    expect(errorOf(await collect(createAnthropicClient({apiKey: API_KEY, baseURL: url})))).toMatchObject({
      message: expect.stringMatching(/sent an HTML page, not an Anthropic Messages API reply\. Check base_url/),
    })
  })

  it('reads a whole message from a server that ignores stream: true', async () => {
    const message = {
      content: [{text: 'Hi.', type: 'text'}],
      id: 'msg_1',
      model: 'claude-haiku-4-5',
      role: 'assistant',
      stop_reason: 'end_turn',
      stop_sequence: null,
      type: 'message',
      usage: {input_tokens: 7, output_tokens: 2},
    }
    const url = await rawServer((_request, response) =>
      response.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify(message)),
    )
    expect(await collect(createAnthropicClient({baseURL: url}))).toEqual([
      {text: 'Hi.', type: 'content_delta'},
      {type: 'usage', usage: {inputTokens: 7, outputTokens: 2}},
      {raw: message, stopReason: 'end_turn', type: 'message_stop'},
    ])
  })
})
