import {describe, expect, it} from 'vitest'

import {createAnthropicClient} from '../../../src/adapters/api/anthropic-client.js'
import {API_KEY, APIS, clientFor, collect, fakeModel} from './helpers.js'

/** The prompt cache's share of the input, as each API reports it, parsed into one usage event: what prices it. */
describe('cached input tokens, against the fake model', () => {
  const script = {turns: [{text: 'Hi.', usage: {cache_read_tokens: 900, input_tokens: 1000, output_tokens: 5}}]}
  const usage = {type: 'usage', usage: {cacheReadTokens: 900, inputTokens: 1000, outputTokens: 5}}

  it.each(APIS)('over %s: the input with its cached part', async (api) => {
    const model = await fakeModel(script)
    expect((await collect(clientFor(model, api))).find((event) => event.type === 'usage')).toEqual(usage)
  })

  it('over anthropic_messages: the input counted with the cache reads, which are said apart', async () => {
    const model = await fakeModel(script)
    const client = createAnthropicClient({apiKey: API_KEY, baseURL: model.url})
    expect((await collect(client)).find((event) => event.type === 'usage')).toEqual(usage)
  })
})
