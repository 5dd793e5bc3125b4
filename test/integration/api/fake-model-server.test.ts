import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import {SseFrameBuffer} from '../../../src/core/protocol/sse-frame-buffer.js'
import {parseScript, ScriptError} from '../../../src/testing/fake-model/script.js'
import {startFakeModel} from '../../../src/testing/fake-model/server.js'
import {REPO_ROOT} from '../../helpers/cli.js'
import {API_KEY, fakeModel} from './helpers.js'

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    body: JSON.stringify(body),
    headers: {authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', ...headers},
    method: 'POST',
  })
}

/** The server-sent events of a response, parsed by our own SSE parser. */
async function frames(response: Response) {
  const sse = new SseFrameBuffer()
  const all = sse.feed(new Uint8Array(await response.arrayBuffer()))
  return [...all, ...sse.end()]
}

const chatRequest = {
  messages: [{content: 'hi', role: 'user'}],
  model: 'fake-model',
  stream: true,
  stream_options: {include_usage: true},
}
const responsesRequest = {
  input: [{content: 'hi', role: 'user', type: 'message'}],
  model: 'fake-model',
  store: false,
  stream: true,
}

describe('the fake model server', () => {
  it('lists the script model at GET /v1/models', async () => {
    const model = await fakeModel({model: 'qwen-fake', turns: []})
    const body = await (await fetch(`${model.url}/models`)).json()
    expect(body).toEqual({
      data: [{created: 0, id: 'qwen-fake', object: 'model', owned_by: 'fake-model'}],
      object: 'list',
    })
  })

  it('streams chat completion chunks: role, text, tool-call fragments by index, finish_reason, usage, [DONE]', async () => {
    const model = await fakeModel({
      turns: [
        {chunk_size: 6, text: 'On it.', tool_calls: [{arguments: {path: 'a.ts'}, id: 'call_1', name: 'fs_read'}]},
      ],
    })
    const response = await post(`${model.url}/chat/completions`, chatRequest)
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const events = await frames(response)
    expect(events.every((frame) => frame.event === null)).toBe(true)
    expect(events.at(-1)?.data).toBe('[DONE]')
    const chunks = events.slice(0, -1).map((frame) => JSON.parse(frame.data))
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.id === 'chatcmpl-fake-1')).toBe(
      true,
    )
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      {content: '', refusal: null, role: 'assistant'},
      {content: 'On it.'},
      {tool_calls: [{function: {arguments: '', name: 'fs_read'}, id: 'call_1', index: 0, type: 'function'}]},
      {tool_calls: [{function: {arguments: '{"path'}, index: 0}]},
      {tool_calls: [{function: {arguments: '":"a.t'}, index: 0}]},
      {tool_calls: [{function: {arguments: 's"}'}, index: 0}]},
      {},
      undefined,
    ])
    expect(chunks.at(-2).choices[0].finish_reason).toBe('tool_calls')
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: {completion_tokens: expect.any(Number), prompt_tokens: 1, total_tokens: expect.any(Number)},
    })
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true)
  })

  it('leaves the usage chunk out unless stream_options.include_usage asks for it', async () => {
    const model = await fakeModel({turns: [{text: 'hi'}]})
    const chunks = (
      await frames(await post(`${model.url}/chat/completions`, {...chatRequest, stream_options: undefined}))
    ).slice(0, -1)
    expect(chunks.map((frame) => JSON.parse(frame.data)).filter((chunk) => 'usage' in chunk)).toEqual([])
  })

  it('streams Responses events, each named in event: and type, numbered, ending in response.completed', async () => {
    const model = await fakeModel({
      turns: [
        {
          text: 'Reading.',
          tool_calls: [{arguments: {path: 'a.ts'}, id: 'call_1', name: 'fs_read'}],
          usage: {input_tokens: 9, output_tokens: 4},
        },
      ],
    })
    const events = await frames(await post(`${model.url}/responses`, responsesRequest))
    const data = events.map((frame) => JSON.parse(frame.data))
    expect(events.map((frame) => frame.event)).toEqual(data.map((event) => event.type))
    expect(data.map((event) => event.sequence_number)).toEqual(data.map((_, index) => index))
    expect(data.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ])
    expect(data[8].item).toMatchObject({arguments: '', call_id: 'call_1', name: 'fs_read', type: 'function_call'})
    expect(data.at(-1).response).toMatchObject({
      output: [{type: 'message'}, {arguments: '{"path":"a.ts"}', call_id: 'call_1', type: 'function_call'}],
      status: 'completed',
      usage: {input_tokens: 9, output_tokens: 4, total_tokens: 13},
    })
  })

  it('breaks a stream with an error in each API style', async () => {
    const model = await fakeModel({
      turns: [
        {stream_error: {message: 'boom'}, text: 'par'},
        {stream_error: {code: 'server_error', message: 'boom'}, text: 'par'},
      ],
    })
    const chat = await frames(await post(`${model.url}/chat/completions`, chatRequest))
    expect(JSON.parse(chat.at(-1)!.data)).toEqual({error: {message: 'boom'}})
    const responses = await frames(await post(`${model.url}/responses`, responsesRequest))
    expect(responses.at(-1)?.event).toBe('error')
    expect(JSON.parse(responses.at(-1)!.data)).toMatchObject({
      code: 'server_error',
      message: 'boom',
      param: null,
      type: 'error',
    })
  })

  it('answers a request without stream: true with one JSON object', async () => {
    const model = await fakeModel({turns: [{text: 'chat'}, {text: 'responses'}]})
    const chat = await (await post(`${model.url}/chat/completions`, {...chatRequest, stream: false})).json()
    expect(chat).toMatchObject({
      choices: [{finish_reason: 'stop', message: {content: 'chat', role: 'assistant'}}],
      object: 'chat.completion',
    })
    const response = await (await post(`${model.url}/responses`, {...responsesRequest, stream: false})).json()
    expect(response).toMatchObject({
      object: 'response',
      output: [{content: [{text: 'responses', type: 'output_text'}], type: 'message'}],
      status: 'completed',
    })
  })

  it('answers a scripted status with its body and headers, and a 200 error body', async () => {
    const model = await fakeModel({
      turns: [
        {headers: {'retry-after': '7'}, status: 429},
        {error_body: {message: 'nope', type: 'invalid_request_error'}},
      ],
    })
    const limited = await post(`${model.url}/chat/completions`, chatRequest)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('7')
    expect(limited.headers.get('retry-after-ms')).toBeNull()
    expect(await limited.json()).toMatchObject({error: {message: 'fake-model: scripted HTTP 429'}})
    const errorBody = await post(`${model.url}/chat/completions`, chatRequest)
    expect(errorBody.status).toBe(200)
    expect(await errorBody.json()).toEqual({error: {message: 'nope', type: 'invalid_request_error'}})
  })

  it('answers 400 naming the unmet expectation, and takes the turn', async () => {
    const model = await fakeModel({
      turns: [
        {expect: {last_user_contains: 'refactor', tools_include: ['fs_read']}, text: 'never sent'},
        {expect: {last_user_contains: 'hi'}, text: 'met'},
      ],
    })
    const failed = await post(`${model.url}/chat/completions`, chatRequest)
    expect(failed.status).toBe(400)
    const {error} = (await failed.json()) as {error: {code: string; message: string}}
    expect(error.code).toBe('fake_model_expectation_failed')
    expect(error.message).toContain('turn 1')
    expect(error.message).toContain('last_user_contains "refactor": the last user message is "hi"')
    expect(error.message).toContain('tools_include: fs_read not offered; the request offers no tools')
    expect((await post(`${model.url}/chat/completions`, chatRequest)).status).toBe(200)
  })

  it("checks a request's reply limit, whatever its API calls the field", async () => {
    const model = await fakeModel({
      turns: [
        {expect: {max_output_tokens_at_most: 50}, text: 'never sent'},
        {expect: {max_output_tokens_at_most: 50}, text: 'never sent'},
        {expect: {max_output_tokens_at_most: 50}, text: 'within'},
      ],
    })
    const none = await post(`${model.url}/chat/completions`, chatRequest)
    expect(((await none.json()) as {error: {message: string}}).error.message).toContain(
      'max_output_tokens_at_most 50: the request sets no reply limit',
    )
    const over = await post(`${model.url}/chat/completions`, {...chatRequest, max_completion_tokens: 51})
    expect(((await over.json()) as {error: {message: string}}).error.message).toContain('the request allows 51')
    expect((await post(`${model.url}/chat/completions`, {...chatRequest, max_tokens: 50})).status).toBe(200)
  })

  it('answers 500 "script exhausted", not to be retried, once the turns run out', async () => {
    const model = await fakeModel({turns: [{text: 'only'}]})
    await post(`${model.url}/chat/completions`, chatRequest)
    const exhausted = await post(`${model.url}/responses`, responsesRequest)
    expect(exhausted.status).toBe(500)
    expect(exhausted.headers.get('x-should-retry')).toBe('false')
    expect(await exhausted.json()).toHaveProperty(
      'error.message',
      expect.stringMatching(/script exhausted: request 2 has no turn \(the script has 1\)/),
    )
  })

  it('records every request with its body, and credentials redacted', async () => {
    const model = await fakeModel({turns: [{text: 'a'}]})
    await post(`${model.url}/chat/completions`, chatRequest, {'api-key': 'azure-secret', 'x-trace': 'kept'})
    await fetch(`${model.url}/models`)
    expect(model.requests.map((request) => [request.method, request.path])).toEqual([
      ['POST', '/v1/chat/completions'],
      ['GET', '/v1/models'],
    ])
    const [first] = model.requests
    expect(first.body).toEqual(chatRequest)
    expect(first.headers).toMatchObject({
      'api-key': '[redacted]',
      authorization: 'Bearer [redacted]',
      'x-trace': 'kept',
    })
    expect(JSON.stringify(model.requests)).not.toMatch(/sk-test|azure-secret/)
  })

  it('loads a script file, and refuses a malformed one naming the file and the turn', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fake-model-'))
    try {
      const good = join(dir, 'good.json')
      writeFileSync(good, JSON.stringify({turns: [{text: 'from a file'}]}))
      const model = await startFakeModel(good)
      const body = await (await post(`${model.url}/chat/completions`, {...chatRequest, stream: false})).json()
      await model.close()
      expect(body).toHaveProperty(['choices', 0, 'message', 'content'], 'from a file')

      const bad = join(dir, 'bad.json')
      writeFileSync(bad, JSON.stringify({turns: [{text: 'ok'}, {txt: 'typo'}]}))
      await expect(startFakeModel(bad)).rejects.toThrow(
        new ScriptError(
          `${bad}: turns[1]: unknown key "txt" for a reply; allowed: expect, text, tool_calls, usage, chunk_size, delay_ms, truncated, stream_error`,
        ),
      )
      writeFileSync(bad, '{"turns": [')
      await expect(startFakeModel(bad)).rejects.toThrow(/bad\.json: not JSON/)
    } finally {
      rmSync(dir, {force: true, recursive: true})
    }
  })

  it("accepts the README's example script", () => {
    const readme = readFileSync(join(REPO_ROOT, 'src', 'testing', 'fake-model', 'README.md'), 'utf8')
    const example = /```json\n([\s\S]*?)```/.exec(readme)?.[1]
    expect(parseScript(JSON.parse(example ?? 'null')).turns).toHaveLength(7)
  })

  it.each([
    [{turns: [{status: 200}]}, 'turns[0].status: must be an HTTP error status (400-599)'],
    [{turns: [{status: 500, text: 'x'}]}, 'turns[0]: unknown key "text" for an HTTP error (status)'],
    [
      {turns: [{tool_calls: [{arguments: 3, name: 'x'}]}]},
      'turns[0].tool_calls[0].arguments: must be an object or a string',
    ],
    [{turns: [{expect: {last_user: 'x'}}]}, 'turns[0].expect: unknown check "last_user"'],
    [{turns: [{expect: {max_output_tokens_at_most: '5'}}]}, 'turns[0].expect.max_output_tokens_at_most: must be'],
    [{turns: [{error_body: {code: 'x'}}]}, 'turns[0].error_body: must be an error object with a "message" string'],
  ])('refuses the script %j', async (script, message) => {
    await expect(startFakeModel(script as never)).rejects.toThrow(message)
  })
})
