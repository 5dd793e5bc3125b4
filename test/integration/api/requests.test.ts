import {describe, expect, it} from 'vitest'

import type {Message} from '../../../src/core/agent/types.js'
import {APIS, clientFor, collect, fakeModel, LIST_DIR, READ_FILE, withoutRaw} from './helpers.js'

/** A conversation with every kind of message: a tool round (one call failed) and a follow-up. */
const HISTORY: Message[] = [
  {content: 'You are terse.', role: 'system'},
  {content: 'What is in src?', role: 'user'},
  {
    content: '',
    role: 'assistant',
    toolCalls: [
      {arguments: '{"path":"src"}', id: 'call_1', input: {path: 'src'}, name: 'fs_list'},
      {arguments: '{"path":"nope"}', id: 'call_2', input: {path: 'nope'}, name: 'fs_read'},
    ],
  },
  {content: 'index.ts\ncli/', isError: false, role: 'tool', toolCallId: 'call_1', toolName: 'fs_list'},
  {content: 'ENOENT: nope', isError: true, role: 'tool', toolCallId: 'call_2', toolName: 'fs_read'},
  {content: 'src has index.ts and cli/.', role: 'assistant', toolCalls: []},
  {content: 'Thanks. Now read index.ts', role: 'user'},
]

describe('the requests the OpenAI client sends', () => {
  it('chat completions: system, user, assistant tool_calls (content null), tool messages, tools, usage asked for', async () => {
    const model = await fakeModel({turns: [{text: 'ok'}]})
    await collect(clientFor(model, 'chat_completions'), HISTORY, [READ_FILE], {maxTokens: 1000, model: 'gpt-test'})
    expect(model.requests[0].body).toEqual({
      max_tokens: 1000,
      messages: [
        {content: 'You are terse.', role: 'system'},
        {content: 'What is in src?', role: 'user'},
        {
          content: null,
          role: 'assistant',
          tool_calls: [
            {function: {arguments: '{"path":"src"}', name: 'fs_list'}, id: 'call_1', type: 'function'},
            {function: {arguments: '{"path":"nope"}', name: 'fs_read'}, id: 'call_2', type: 'function'},
          ],
        },
        {content: 'index.ts\ncli/', role: 'tool', tool_call_id: 'call_1'},
        {content: 'ENOENT: nope', role: 'tool', tool_call_id: 'call_2'},
        {content: 'src has index.ts and cli/.', role: 'assistant'},
        {content: 'Thanks. Now read index.ts', role: 'user'},
      ],
      model: 'gpt-test',
      stream: true,
      stream_options: {include_usage: true},
      tools: [
        {function: {description: 'Read a file', name: 'fs_read', parameters: READ_FILE.inputSchema}, type: 'function'},
      ],
    })
    expect(model.requests[0].path).toBe('/v1/chat/completions')
  })

  it('responses: instructions, input messages, function_call and function_call_output items, store: false', async () => {
    const model = await fakeModel({turns: [{text: 'ok'}]})
    await collect(clientFor(model, 'responses'), HISTORY, [READ_FILE], {maxTokens: 1000, model: 'gpt-test'})
    expect(model.requests[0].body).toEqual({
      input: [
        {content: 'What is in src?', role: 'user', type: 'message'},
        {arguments: '{"path":"src"}', call_id: 'call_1', name: 'fs_list', type: 'function_call'},
        {arguments: '{"path":"nope"}', call_id: 'call_2', name: 'fs_read', type: 'function_call'},
        {call_id: 'call_1', output: 'index.ts\ncli/', type: 'function_call_output'},
        {call_id: 'call_2', output: 'ENOENT: nope', type: 'function_call_output'},
        {content: 'src has index.ts and cli/.', role: 'assistant', type: 'message'},
        {content: 'Thanks. Now read index.ts', role: 'user', type: 'message'},
      ],
      instructions: 'You are terse.',
      max_output_tokens: 1000,
      model: 'gpt-test',
      store: false,
      stream: true,
      tools: [
        {
          description: 'Read a file',
          name: 'fs_read',
          parameters: READ_FILE.inputSchema,
          strict: false,
          type: 'function',
        },
      ],
    })
    expect(model.requests[0].path).toBe('/v1/responses')
  })

  it.each(APIS)(
    '%s: sends the key as a bearer token and the default headers; no Authorization without a key',
    async (api) => {
      const model = await fakeModel({turns: [{text: 'a'}, {text: 'b'}]})
      await collect(clientFor(model, api, {defaultHeaders: {'x-hanzo-session': 's1'}}))
      await collect(clientFor(model, api, {apiKey: undefined}))
      expect(model.requests[0].headers).toMatchObject({
        accept: 'text/event-stream',
        authorization: 'Bearer [redacted]',
        'content-type': 'application/json',
        'user-agent': expect.stringMatching(/^hanzo-dev/),
        'x-hanzo-session': 's1',
      })
      expect(model.requests[1].headers).not.toHaveProperty('authorization')
    },
  )

  it.each(APIS)('%s: meets the expectations a script puts on the history', async (api) => {
    const model = await fakeModel({
      turns: [
        {
          expect: {
            has_tool_result_for: 'fs_list',
            last_user_contains: 'read index.ts',
            system_contains: 'terse',
            tool_result_contains: 'ENOENT',
            tools_include: ['fs_read', 'fs_list'],
          },
          text: 'ok',
        },
        {expect: {has_tool_result_for: 'call_9'}, text: 'never sent'},
      ],
    })
    const client = clientFor(model, api)
    expect(withoutRaw(await collect(client, HISTORY, [READ_FILE, LIST_DIR]))[0]).toEqual({
      text: 'ok',
      type: 'content_delta',
    })
    const [failure] = await collect(client, HISTORY, [READ_FILE])
    expect(failure).toMatchObject({error: {code: 'fake_model_expectation_failed', status: 400}, type: 'error'})
    expect(failure.type === 'error' && failure.error.message).toContain(
      'has_tool_result_for "call_9": the tool results answer call_1 (fs_list), call_2 (fs_read)',
    )
  })
})
