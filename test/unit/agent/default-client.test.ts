import {afterEach, describe, expect, it} from 'vitest'

import {
  Agent,
  getDefaultOpenAIApi,
  MissingModelClientError,
  resetOpenAIDefaults,
  Runner,
  setDefaultOpenAIApi,
  setDefaultOpenAIClient,
  type StreamEvent,
} from '../../../src/core/agent/index.js'
import {UserError} from '../../../src/core/errors.js'
import {scripted} from '../../helpers/scripted-model.js'

const text = (t: string): StreamEvent[] => [
  {text: t, type: 'content_delta'},
  {stopReason: 'end_turn', type: 'message_stop'},
]
const agent = new Agent({model: 'm', name: 'a'})

describe('the default model client', () => {
  afterEach(() => resetOpenAIDefaults())

  it('is needed when a run names no client: a MissingModelClientError says what to set', async () => {
    const failure = await Runner.run(agent, 'Hi').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(MissingModelClientError)
    expect(failure).toBeInstanceOf(UserError)
    expect(failure).toMatchObject({
      hint: expect.stringContaining("setDefaultOpenAIApi('chat_completions')"),
      message: expect.stringMatching(
        /^Runner\.run needs a model client: pass \{client\}.*, or call setDefaultOpenAIClient\(client\) once/,
      ),
      name: 'MissingModelClientError',
    })
  })

  it('runs every run that names no client, until another replaces it or a reset clears it', async () => {
    const first = scripted(text('first'))
    const second = scripted(text('second'))
    setDefaultOpenAIClient(first)
    expect((await Runner.run(agent, 'Hi')).finalOutput).toBe('first')
    setDefaultOpenAIClient(second)
    expect((await Runner.run(agent, 'Hi')).finalOutput).toBe('second')
    expect([first.requests.length, second.requests.length]).toEqual([1, 1])
    resetOpenAIDefaults()
    await expect(Runner.run(agent, 'Hi')).rejects.toBeInstanceOf(MissingModelClientError)
  })

  it("gives way to a run's own client", async () => {
    const fallback = scripted()
    setDefaultOpenAIClient(fallback)
    expect((await Runner.run(agent, 'Hi', {client: scripted(text('own'))})).finalOutput).toBe('own')
    expect(fallback.requests).toEqual([])
  })

  it('refuses what is not a model client, such as an openai package client, naming what to pass instead', () => {
    const openaiPackageClient = {apiKey: 'k', baseURL: 'http://127.0.0.1:1/v1', chat: {completions: {}}}
    expect(() => setDefaultOpenAIClient(openaiPackageClient as never)).toThrow(
      /an openai package client is not one \(give its baseURL and apiKey to createOpenAIClient\)/,
    )
  })
})

describe('the default OpenAI API', () => {
  afterEach(() => resetOpenAIDefaults())

  it('is the Responses API until set, then the one set, until a reset', () => {
    expect(getDefaultOpenAIApi()).toBe('responses')
    setDefaultOpenAIApi('chat_completions')
    expect(getDefaultOpenAIApi()).toBe('chat_completions')
    resetOpenAIDefaults()
    expect(getDefaultOpenAIApi()).toBe('responses')
  })

  it('refuses an API it does not know', () => {
    expect(() => setDefaultOpenAIApi('completions' as never)).toThrow(
      `setDefaultOpenAIApi takes 'chat_completions' or 'responses', not "completions"`,
    )
    expect(getDefaultOpenAIApi()).toBe('responses')
  })
})
