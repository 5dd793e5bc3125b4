import {describe, expect, it} from 'vitest'

import {APIS, clientFor, collect, fakeModel, LIST_DIR, READ_FILE, withoutRaw} from './helpers.js'

describe.each(APIS)('the OpenAI client over %s, against the fake model', (api) => {
  it('streams text as deltas, then the usage, then message_stop', async () => {
    const model = await fakeModel({
      turns: [{chunk_size: 4, text: 'Hello, world!', usage: {input_tokens: 12, output_tokens: 5}}],
    })
    const events = await collect(clientFor(model, api))
    expect(withoutRaw(events)).toEqual([
      {text: 'Hell', type: 'content_delta'},
      {text: 'o, w', type: 'content_delta'},
      {text: 'orld', type: 'content_delta'},
      {text: '!', type: 'content_delta'},
      {type: 'usage', usage: {inputTokens: 12, outputTokens: 5}},
      {stopReason: 'end_turn', type: 'message_stop'},
    ])
    expect(model.requests).toHaveLength(1)
  })

  it('assembles parallel tool calls from arguments split across many deltas', async () => {
    const model = await fakeModel({
      turns: [
        {
          chunk_size: 3,
          text: 'Looking.',
          tool_calls: [
            {arguments: {path: 'src/index.ts'}, id: 'call_a', name: 'fs_read'},
            {arguments: {path: 'src'}, id: 'call_b', name: 'fs_list'},
          ],
        },
      ],
    })
    const events = await collect(clientFor(model, api), undefined, [READ_FILE, LIST_DIR])
    const calls = events.filter((event) => event.type === 'tool_use').map((event) => event.call)
    expect(calls).toEqual([
      {arguments: '{"path":"src/index.ts"}', id: 'call_a', input: {path: 'src/index.ts'}, name: 'fs_read'},
      {arguments: '{"path":"src"}', id: 'call_b', input: {path: 'src'}, name: 'fs_list'},
    ])
    expect(
      events
        .filter((event) => event.type === 'content_delta')
        .map((event) => event.text)
        .join(''),
    ).toBe('Looking.')
    expect(events.at(-1)).toMatchObject({stopReason: 'tool_use', type: 'message_stop'})
  })

  it('gives {} as the input of a call whose arguments are not valid JSON, and the raw arguments', async () => {
    const model = await fakeModel({
      turns: [{chunk_size: 5, tool_calls: [{arguments: '{"path": "a.ts", ', name: 'fs_read'}]}],
    })
    const events = await collect(clientFor(model, api), undefined, [READ_FILE])
    expect(events.find((event) => event.type === 'tool_use')).toEqual({
      call: {arguments: '{"path": "a.ts", ', id: 'call_fake_1_1', input: {}, name: 'fs_read'},
      type: 'tool_use',
    })
  })

  it('reports a reply cut at the output limit as max_tokens', async () => {
    const model = await fakeModel({turns: [{text: 'It was a dark and', truncated: true}]})
    const events = await collect(clientFor(model, api))
    expect(events.at(-1)).toMatchObject({stopReason: 'max_tokens', type: 'message_stop'})
  })

  it('keeps the raw reply, a <think> block included, on message_stop', async () => {
    const model = await fakeModel({turns: [{text: '<think>plan</think>Done.'}]})
    const stop = (await collect(clientFor(model, api))).at(-1)
    expect(JSON.stringify(stop?.type === 'message_stop' && stop.raw)).toContain('<think>plan</think>')
  })

  it('counts usage from the conversation when the script gives none', async () => {
    const model = await fakeModel({turns: [{text: 'abcdefgh'}]})
    const events = await collect(clientFor(model, api), [{content: 'x'.repeat(40), role: 'user'}])
    expect(events.find((event) => event.type === 'usage')).toEqual({
      type: 'usage',
      usage: {inputTokens: 10, outputTokens: 2},
    })
  })

  it('ends quietly, without message_stop or error, when the signal aborts mid-stream', async () => {
    const model = await fakeModel({turns: [{chunk_size: 1, delay_ms: 20, text: 'a long reply that will not finish'}]})
    const controller = new AbortController()
    const events = []
    for await (const event of clientFor(model, api).sendMessage([{content: 'hi', role: 'user'}], [], {
      model: 'fake-model',
      signal: controller.signal,
    })) {
      events.push(event)
      controller.abort()
    }

    expect(events).toEqual([{text: 'a', type: 'content_delta'}])
  })

  // A wait that does not watch the signal would sleep out the retry-after (20 s): the test's timeout catches that.
  it('ends quietly at once when the signal aborts during a retry wait', {timeout: 10_000}, async () => {
    const model = await fakeModel({turns: [{headers: {'retry-after': '20'}, status: 429}, {text: 'never sent'}]})
    const controller = new AbortController()
    const waiting = collect(clientFor(model, api), undefined, [], {signal: controller.signal})
    await expect.poll(() => model.requests.length).toBe(1)
    controller.abort()
    expect(await waiting).toEqual([])
    expect(model.requests).toHaveLength(1)
  })

  it('sends nothing when the signal is already aborted', async () => {
    const model = await fakeModel({turns: [{text: 'unused'}]})
    const events = await collect(clientFor(model, api), undefined, [], {signal: AbortSignal.abort()})
    expect(events).toEqual([])
    expect(model.requests).toEqual([])
  })
})
