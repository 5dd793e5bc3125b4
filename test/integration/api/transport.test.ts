import type {Socket} from 'node:net'

import {describe, expect, it} from 'vitest'

import {createOpenAIClient} from '../../../src/adapters/api/openai-client.js'
import {API_KEY, collect, errorOf, fakeModel, rawServer, withoutRaw} from './helpers.js'

const REPLY = [
  'data: {"choices":[{"index":0,"delta":{"content":"ok"}}]}',
  'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
  'data: [DONE]',
  '',
].join('\n\n')

const TEXT_ONLY = [
  {text: 'ok', type: 'content_delta'},
  {stopReason: 'end_turn', type: 'message_stop'},
]

/** A whole second, as HTTP dates have no finer ones. */
const NOW = Date.UTC(2030, 0, 1, 12, 0, 0)

/** The transport's clock, stopped at NOW: its waits are recorded and end at once. */
function recordingClock() {
  const waits: number[] = []
  return {
    now: () => NOW,
    async sleep(ms: number) {
      waits.push(ms)
    },
    waits,
  }
}

describe('the HTTP transport of the OpenAI client (chat completions)', () => {
  it('sends successive calls of one client over one kept-alive connection', async () => {
    const sockets = new Set<Socket>()
    const baseURL = await rawServer((request, response) => {
      sockets.add(request.socket)
      response.writeHead(200, {'content-type': 'text/event-stream'}).end(REPLY)
    })
    const client = createOpenAIClient({api: 'chat_completions', apiKey: API_KEY, baseURL})
    for (let call = 0; call < 3; call++) expect(withoutRaw(await collect(client))).toEqual(TEXT_ONLY)
    expect(sockets.size).toBe(1)
  })

  it('ends the call at the final event of a stream the server keeps open', async () => {
    const baseURL = await rawServer((_request, response) => {
      response.writeHead(200, {'content-type': 'text/event-stream'}).write(REPLY)
    })
    expect(withoutRaw(await collect(createOpenAIClient({api: 'chat_completions', apiKey: API_KEY, baseURL})))).toEqual(
      TEXT_ONLY,
    )
  })

  it('obeys x-should-retry over the status', async () => {
    const model = await fakeModel({
      turns: [
        {body: {message: 'try again'}, headers: {'retry-after-ms': '0', 'x-should-retry': 'true'}, status: 400},
        {text: 'ok'},
        {body: {message: 'do not bother'}, headers: {'x-should-retry': 'false'}, status: 503},
        {text: 'never sent'},
      ],
    })
    const client = createOpenAIClient({api: 'chat_completions', apiKey: API_KEY, baseURL: model.url})
    expect(withoutRaw(await collect(client))[0]).toEqual({text: 'ok', type: 'content_delta'})
    expect(errorOf(await collect(client))).toMatchObject({message: 'do not bother', status: 503})
    expect(model.requests).toHaveLength(3)
  })

  it.each([
    ['milliseconds', {'retry-after-ms': '1500'}, 1500],
    ['seconds', {'retry-after': '2'}, 2000],
    ['an HTTP date', {'retry-after': new Date(NOW + 3000).toUTCString()}, 3000],
  ])('waits the retry-after the server gives in %s', async (_form, headers, waitMs) => {
    const model = await fakeModel({turns: [{headers, status: 429}, {text: 'ok'}]})
    const clock = recordingClock()
    expect(
      withoutRaw(
        await collect(
          createOpenAIClient({api: 'chat_completions', apiKey: API_KEY, baseURL: model.url, maxRetries: 1, ...clock}),
        ),
      )[0],
    ).toEqual({text: 'ok', type: 'content_delta'})
    expect(clock.waits).toEqual([waitMs])
    expect(model.requests).toHaveLength(2)
  })

  it('retries an attempt that timed out, after a backoff', async () => {
    let attempts = 0
    const baseURL = await rawServer((_request, response) => {
      // The first attempt is never answered.
      if (++attempts > 1) response.writeHead(200, {'content-type': 'text/event-stream'}).end(REPLY)
    })
    const clock = recordingClock()
    const events = await collect(
      createOpenAIClient({api: 'chat_completions', apiKey: API_KEY, baseURL, maxRetries: 1, timeoutMs: 50, ...clock}),
    )
    expect(withoutRaw(events)).toEqual(TEXT_ONLY)
    expect(attempts).toBe(2)
    // Full jitter under the first ceiling (500 ms).
    expect(clock.waits).toEqual([expect.any(Number)])
    expect(clock.waits[0]).toBeLessThanOrEqual(500)
  })
})
