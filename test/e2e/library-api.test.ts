import {describe, expect, it} from 'vitest'

import {startFakeModel} from '../../src/testing/fake-model/server.js'

// The package's own entry, as `import ... from 'hanzo-dev'` resolves it (the built dist/).
const library = await import('hanzo-dev')

describe("the library entry ('hanzo-dev')", () => {
  it('exports the HIP-301 protocol pieces', () => {
    for (const name of ['SseFrameBuffer', 'Backoff', 'PkceChallenge', 'normalizeMcpToolName', 'parseMcpToolName', 'ProtocolError']) {
      expect(library, name).toHaveProperty(name)
    }

    const sse = new library.SseFrameBuffer()
    expect(sse.feed('data: [DONE]\n\n')).toEqual([{data: '[DONE]', event: null, id: null, retry: null}])
    expect(library.normalizeMcpToolName('github', 'create.issue')).toBe('mcp__github__create_issue')
  })

  it('exports the config loader', () => {
    expect(library).toHaveProperty('loadConfig')
  })

  it("runs the README's Agent / Runner / tool example against an OpenAI-compatible server", async () => {
    const {Agent, createOpenAIClient, Runner, tool} = library
    const model = await startFakeModel({
      turns: [
        {expect: {system_contains: 'get_weather', tools_include: ['get_weather']}, tool_calls: [{arguments: {city: 'Tokyo'}, name: 'get_weather'}]},
        {expect: {tool_result_contains: 'sunny'}, text: '<think>easy</think>It is sunny in Tokyo.'},
      ],
    })
    try {
      const weather = tool<{city: string}>({
        description: 'The weather in a city',
        execute: ({city}) => `The weather in ${city} is sunny.`,
        mutating: false,
        name: 'get_weather',
        parameters: {properties: {city: {type: 'string'}}, required: ['city'], type: 'object'},
      })
      const agent = new Agent({instructions: 'Answer with the get_weather tool.', model: 'qwen3:0.6b', name: 'Weather', tools: [weather]})
      const client = createOpenAIClient({api: 'chat_completions', baseURL: model.url})
      const result = await Runner.run(agent, 'What is the weather in Tokyo?', {client})
      expect(result.finalOutput).toBe('It is sunny in Tokyo.')
      expect(JSON.stringify(result.rawResponses)).toContain('<think>easy</think>')
    } finally {
      await model.close()
    }
  })
})
