import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {setImmediate as nextTurn} from 'node:timers/promises'

import {describe, expect, it} from 'vitest'

import {createOpenAIClient} from '../../../src/adapters/api/openai-client.js'
import type {StreamEvent} from '../../../src/core/agent/types.js'
import {REPO_ROOT} from '../../helpers/cli.js'
import {type Api, collect, rawServer, withoutRaw} from './helpers.js'

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'sse')

/** Serves a fixture's chunks verbatim, one write each, to whatever asks. */
async function serveFixture(name: string): Promise<string> {
  const chunks = readFileSync(join(FIXTURES, name), 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as string)
  return rawServer(async (_request, response) => {
    response.writeHead(200, {'content-type': 'text/event-stream'})
    for (const chunk of chunks) {
      response.write(chunk)
      await nextTurn()
    }

    response.end()
  })
}

async function eventsOf(name: string, api: Api): Promise<StreamEvent[]> {
  return collect(createOpenAIClient({api, apiKey: 'sk-fixture', baseURL: await serveFixture(name)}))
}

const text = (...pieces: string[]): StreamEvent[] => pieces.map((piece) => ({text: piece, type: 'content_delta'}))

describe('recorded-format streams through the OpenAI client', () => {
  it('chat completions text reply: a delta per chunk, the usage chunk, end_turn', async () => {
    const events = await eventsOf('chat-completions-text.chunks.txt', 'chat_completions')
    expect(withoutRaw(events)).toEqual([
      ...text('Hello', '!', ' How', ' can', ' I', ' help', ' you', ' today', '?'),
      {type: 'usage', usage: {inputTokens: 9, outputTokens: 10}},
      {stopReason: 'end_turn', type: 'message_stop'},
    ])
    const stop = events.at(-1)
    expect(stop?.type === 'message_stop' && stop.raw).toHaveLength(12)
  })

  it('chat completions parallel tool calls: both assembled from fragments, in index order', async () => {
    expect(withoutRaw(await eventsOf('chat-completions-parallel-tools.chunks.txt', 'chat_completions'))).toEqual([
      {
        call: {
          arguments: '{"path": "src/index.ts"}',
          id: 'call_Ym9vdHN0cmFwLWEx',
          input: {path: 'src/index.ts'},
          name: 'fs_read',
        },
        type: 'tool_use',
      },
      {
        call: {arguments: '{"path": "src"}', id: 'call_c2Vjb25kLWNhbGwy', input: {path: 'src'}, name: 'fs_list'},
        type: 'tool_use',
      },
      {type: 'usage', usage: {inputTokens: 152, outputTokens: 48}},
      {stopReason: 'tool_use', type: 'message_stop'},
    ])
  })

  it('a <think> prefix passes through as text, and stays in raw', async () => {
    const events = await eventsOf('chat-completions-think.chunks.txt', 'chat_completions')
    expect(withoutRaw(events)).toEqual([
      ...text('<think>', '\n', 'The user wants', ' a greeting', '.', '\n', '</think>', '\n\n', 'Hi', '!', ' 👋'),
      {type: 'usage', usage: {inputTokens: 6, outputTokens: 14}},
      {stopReason: 'end_turn', type: 'message_stop'},
    ])
    const stop = events.at(-1)
    expect(JSON.stringify(stop?.type === 'message_stop' && stop.raw)).toContain('<think>')
  })

  it('Ollama: no usage, finish_reason stop', async () => {
    expect(withoutRaw(await eventsOf('ollama-chat.chunks.txt', 'chat_completions'))).toEqual([
      ...text('The', ' capital', ' of', ' France', ' is', ' Paris', '.'),
      {stopReason: 'end_turn', type: 'message_stop'},
    ])
  })

  it('Responses function call after a reasoning item: one tool_use, the usage, the final response as raw', async () => {
    const events = await eventsOf('responses-function-call.chunks.txt', 'responses')
    expect(withoutRaw(events)).toEqual([
      {
        call: {
          arguments: '{"path":"README.md"}',
          id: 'call_R2VuZXJhdGVkSWQx',
          input: {path: 'README.md'},
          name: 'fs_read',
        },
        type: 'tool_use',
      },
      {type: 'usage', usage: {inputTokens: 311, outputTokens: 87}},
      {stopReason: 'tool_use', type: 'message_stop'},
    ])
    expect(events.at(-1)).toMatchObject({raw: {object: 'response', status: 'completed'}})
  })

  it('Responses failure: the text so far, then the error with the server message and code', async () => {
    const events = await eventsOf('responses-failed.chunks.txt', 'responses')
    expect(events.slice(0, 2)).toEqual(text('Let', ' me'))
    expect(events).toHaveLength(3)
    expect(events[2]).toMatchObject({
      error: {
        code: 'server_error',
        message: 'The server had an error processing your request. Sorry about that! You can retry your request.',
      },
      type: 'error',
    })
  })
})

describe('a server that ignores stream: true and sends the whole reply as JSON', () => {
  const serveJson = (body: unknown) =>
    rawServer((_request, response) =>
      response.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify(body)),
    )

  it('chat completions: the completion becomes the same events a stream would give', async () => {
    const completion = {
      choices: [
        {
          finish_reason: 'tool_calls',
          index: 0,
          message: {
            content: 'Reading.',
            role: 'assistant',
            tool_calls: [{function: {arguments: '{"path":"a.ts"}', name: 'fs_read'}, id: 'call_1', type: 'function'}],
          },
        },
      ],
      id: 'chatcmpl-1',
      object: 'chat.completion',
      usage: {completion_tokens: 7, prompt_tokens: 20, total_tokens: 27},
    }
    const events = await collect(createOpenAIClient({api: 'chat_completions', baseURL: await serveJson(completion)}))
    expect(events).toEqual([
      ...text('Reading.'),
      {call: {arguments: '{"path":"a.ts"}', id: 'call_1', input: {path: 'a.ts'}, name: 'fs_read'}, type: 'tool_use'},
      {type: 'usage', usage: {inputTokens: 20, outputTokens: 7}},
      {raw: completion, stopReason: 'tool_use', type: 'message_stop'},
    ])
  })

  it('responses: the response object becomes the same events a stream would give', async () => {
    const response = {
      id: 'resp_1',
      incomplete_details: {reason: 'max_output_tokens'},
      object: 'response',
      output: [
        {
          content: [{annotations: [], text: 'It was a dark', type: 'output_text'}],
          id: 'msg_1',
          role: 'assistant',
          type: 'message',
        },
      ],
      status: 'incomplete',
      usage: {input_tokens: 5, output_tokens: 4},
    }
    const events = await collect(createOpenAIClient({api: 'responses', baseURL: await serveJson(response)}))
    expect(events).toEqual([
      ...text('It was a dark'),
      {type: 'usage', usage: {inputTokens: 5, outputTokens: 4}},
      {raw: response, stopReason: 'max_tokens', type: 'message_stop'},
    ])
  })
})
