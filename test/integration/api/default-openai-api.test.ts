import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'

import {createOpenAIClient} from '../../../src/adapters/api/openai-client.js'
import {
  Agent,
  resetOpenAIDefaults,
  Runner,
  setDefaultOpenAIApi,
  setDefaultOpenAIClient,
} from '../../../src/core/agent/index.js'
import {type FakeModel, startFakeModel} from '../../../src/testing/fake-model/server.js'

describe('setDefaultOpenAIApi, against an OpenAI-compatible server', () => {
  let model: FakeModel
  beforeAll(async () => {
    model = await startFakeModel({turns: Array.from({length: 4}, (_, turn) => ({text: `reply ${turn}`}))})
  })
  afterAll(() => model.close())
  afterEach(() => resetOpenAIDefaults())

  it('picks the wire API of a client made without one at each request, in whichever order the two are set; a client made with one keeps it', async () => {
    const agent = new Agent({model: 'qwen3:0.6b', name: 'a'})
    setDefaultOpenAIClient(createOpenAIClient({baseURL: model.url}))
    expect((await Runner.run(agent, 'Hi')).finalOutput).toBe('reply 0')
    setDefaultOpenAIApi('chat_completions')
    expect((await Runner.run(agent, 'Hi')).finalOutput).toBe('reply 1')
    await Runner.run(agent, 'Hi', {client: createOpenAIClient({api: 'responses', baseURL: model.url})})
    resetOpenAIDefaults()
    await Runner.run(agent, 'Hi', {client: createOpenAIClient({baseURL: model.url})})
    expect(model.requests.map((request) => request.path)).toEqual([
      '/v1/responses',
      '/v1/chat/completions',
      '/v1/responses',
      '/v1/responses',
    ])
  })
})
