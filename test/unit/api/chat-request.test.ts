import {describe, expect, it} from 'vitest'

import {chatCompletionsFor} from '../../../src/adapters/api/chat-completions.js'

const request = (baseURL: string, maxTokens?: number) =>
  chatCompletionsFor(baseURL).request([{content: 'hi', role: 'user'}], [], {maxTokens, model: 'm'})

describe('the chat completions output limit', () => {
  it('goes as max_tokens to compatible servers, the field they read', () => {
    expect(request('http://127.0.0.1:11434/v1', 500)).toMatchObject({max_tokens: 500})
    expect(request('http://127.0.0.1:11434/v1', 500)).not.toHaveProperty('max_completion_tokens')
  })

  it('goes as max_completion_tokens to api.openai.com, whose reasoning models refuse max_tokens', () => {
    expect(request('https://api.openai.com/v1', 500)).toMatchObject({max_completion_tokens: 500})
    expect(request('https://api.openai.com/v1', 500)).not.toHaveProperty('max_tokens')
  })

  it('is left out when none is set', () => {
    expect(request('https://api.openai.com/v1')).not.toHaveProperty('max_completion_tokens')
    expect(request('http://127.0.0.1:11434/v1')).not.toHaveProperty('max_tokens')
  })
})
