import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it} from 'vitest'

import type {StreamEvent} from '../../../src/core/agent/types.js'
import type {Script} from '../../../src/testing/fake-model/script.js'
import {createScriptedClient} from '../../../src/testing/fake-model/scripted-client.js'
import {APIS, clientFor, collect, fakeModel, replaySession} from './helpers.js'

/** One of everything a script can do, as a session would meet it. */
const SCRIPT: Script = {
  turns: [
    {
      expect: {last_user_contains: 'fix'},
      chunk_size: 3,
      text: '<think>look first</think>Reading.',
      tool_calls: [{arguments: {path: 'a.ts'}, name: 'fs_read'}],
    },
    {status: 429},
    {expect: {has_tool_result_for: 'fs_read'}, text: 'Fixed.', usage: {input_tokens: 30, output_tokens: 2}},
    {tool_calls: [{arguments: '{"path": ', id: 'bad', name: 'fs_read'}], truncated: true},
    {body: {code: 'invalid_api_key', message: 'Incorrect API key provided.'}, status: 401},
    {error_body: {code: 'overloaded', message: 'Try later.'}},
    {stream_error: {code: 'server_error', message: 'cut'}, text: 'par'},
    {status: 500},
    {status: 500},
    {status: 500},
    {expect: {tools_include: ['exec']}, text: 'never'},
  ],
}

describe.each(APIS)('the replay client over %s', (api) => {
  it('yields the same events as the OpenAI client against the fake server, raw replies and errors included', async () => {
    const model = await fakeModel(SCRIPT)
    const overHttp = await replaySession(clientFor(model, api), 9)
    const replayed = await replaySession(await createScriptedClient(SCRIPT, {api}), 9)
    expect(replayed).toEqual(overHttp)
    expect(overHttp.map((events) => (events as Array<{type: string}>).at(-1)?.type)).toEqual([
      'message_stop',
      'message_stop',
      'message_stop',
      'error',
      'error',
      'error',
      'error',
      'error',
      'error',
    ])
    expect(overHttp[1]).toContainEqual({text: 'Fixed.', type: 'content_delta'})
    expect(overHttp[2]).toContainEqual(expect.objectContaining({stopReason: 'max_tokens', type: 'message_stop'}))
    expect(overHttp.slice(3)).toMatchObject([
      [{message: 'Incorrect API key provided.', status: 401}],
      [{code: 'overloaded', message: 'Try later.'}],
      [{text: 'par'}, {message: 'cut'}],
      [{message: 'fake-model: scripted HTTP 500', status: 500}],
      [{code: 'fake_model_expectation_failed', status: 400}],
      [{code: 'fake_model_script_exhausted', status: 500}],
    ])
  })
})

describe('createScriptedClient', () => {
  it('reads a script file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fake-model-'))
    try {
      const file = join(dir, 'script.json')
      writeFileSync(file, JSON.stringify({model: 'scripted-7b', turns: [{text: 'from the file'}]}))
      const client = await createScriptedClient(file)
      expect(client.model).toBe('scripted-7b')
      const events = await collect(client)
      expect(events[0]).toEqual({text: 'from the file', type: 'content_delta'})
    } finally {
      rmSync(dir, {force: true, recursive: true})
    }
  })

  it('ends quietly when the signal aborts mid-stream', async () => {
    const client = await createScriptedClient({turns: [{chunk_size: 1, delay_ms: 5, text: 'slow reply'}]})
    const controller = new AbortController()
    const events: StreamEvent[] = []
    for await (const event of client.sendMessage([{content: 'hi', role: 'user'}], [], {
      model: 'm',
      signal: controller.signal,
    })) {
      events.push(event)
      controller.abort()
    }

    expect(events).toEqual([{text: 's', type: 'content_delta'}])
  })
})
