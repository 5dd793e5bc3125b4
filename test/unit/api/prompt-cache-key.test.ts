import {describe, expect, it} from 'vitest'

import {chatCompletionsFor} from '../../../src/adapters/api/chat-completions.js'
import {promptCacheKey} from '../../../src/adapters/api/openai-client.js'
import {responsesWire} from '../../../src/adapters/api/responses.js'

const OPENAI = 'https://api.openai.com/v1'
const OLLAMA = 'http://127.0.0.1:11434/v1'
const hi = [{content: 'hi', role: 'user'}] as const

describe("OpenAI's prompt_cache_key", () => {
  it('is the session id for OpenAI (provider openai, or its host under any name)', () => {
    expect(promptCacheKey({baseURL: OPENAI, provider: 'openai'}, 's1')).toBe('s1')
    expect(promptCacheKey({baseURL: 'https://proxy.example/v1', provider: 'openai'}, 's1')).toBe('s1')
    expect(promptCacheKey({baseURL: OPENAI, provider: 'work'}, 's1')).toBe('s1')
  })

  it('is not sent to other compatible servers unless prompt_cache says so, and never when it says false', () => {
    expect(promptCacheKey({baseURL: OLLAMA, provider: 'ollama'}, 's1')).toBeUndefined()
    expect(promptCacheKey({baseURL: OLLAMA, promptCache: true, provider: 'vllm'}, 's1')).toBe('s1')
    expect(promptCacheKey({baseURL: OPENAI, promptCache: false, provider: 'openai'}, 's1')).toBeUndefined()
  })

  it('goes in chat completions and Responses requests when given, and is absent otherwise', () => {
    expect(chatCompletionsFor(OPENAI, 's1').request(hi, [], {model: 'm'})).toMatchObject({prompt_cache_key: 's1'})
    expect(responsesWire('s1').request(hi, [], {model: 'm'})).toMatchObject({prompt_cache_key: 's1'})
    expect(chatCompletionsFor(OLLAMA).request(hi, [], {model: 'm'})).not.toHaveProperty('prompt_cache_key')
    expect(responsesWire().request(hi, [], {model: 'm'})).not.toHaveProperty('prompt_cache_key')
  })
})
