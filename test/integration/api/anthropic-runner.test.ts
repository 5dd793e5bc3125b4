import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {describe, expect, it, onTestFinished} from 'vitest'

import {createAnthropicClient} from '../../../src/adapters/api/anthropic-client.js'
import {fsList, fsRead} from '../../../src/adapters/tools/index.js'
import {Agent, type AgentEvent, Runner} from '../../../src/core/agent/index.js'
import {API_KEY, fakeModel} from './helpers.js'

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'anthropic-run-'))
  onTestFinished(() => rmSync(dir, {force: true, recursive: true}))
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return dir
}

const agent = new Agent({
  instructions: 'You are a coding agent.',
  model: 'claude-fake',
  name: 'coder',
  tools: [fsRead, fsList],
})

describe('Runner.run over the Anthropic Messages API', () => {
  it('runs a tool_use with the real fs_read, sends the tool_result back, and ends with the answer', async () => {
    const cwd = workspace({'a.txt': 'hello from a.txt\n'})
    const model = await fakeModel({
      turns: [
        {
          chunk_size: 5,
          expect: {
            last_user_contains: 'What does a.txt say',
            system_contains: 'coding agent',
            tools_include: ['fs_read', 'fs_list'],
          },
          text: 'Let me read it.',
          tool_calls: [{arguments: {path: 'a.txt'}, id: 'toolu_read', name: 'fs_read'}],
        },
        {
          expect: {has_tool_result_for: 'fs_read', tool_result_contains: 'hello from a.txt'},
          text: 'It says hello.',
          usage: {input_tokens: 40, output_tokens: 4},
        },
      ],
    })
    const client = createAnthropicClient({apiKey: API_KEY, baseURL: model.url})
    const result = await Runner.run(agent, 'What does a.txt say?', {client, cwd})
    expect(result).toMatchObject({finalOutput: 'It says hello.', stop: 'completed', turns: 2})
    expect(result.usage.inputTokens).toBeGreaterThan(40)
    expect(result.usage.outputTokens).toBeGreaterThan(4)
    const second = model.requests[1]?.body as {system: unknown; messages: unknown[]}
    // Cache breakpoints on the system prompt and on both user messages (anthropic-cache.test.ts).
    const cached = {cache_control: {type: 'ephemeral'}}
    expect(second.system).toEqual([{text: 'You are a coding agent.', type: 'text', ...cached}])
    expect(second.messages).toEqual([
      {content: [{text: 'What does a.txt say?', type: 'text', ...cached}], role: 'user'},
      {
        content: [
          {text: 'Let me read it.', type: 'text'},
          {id: 'toolu_read', input: {path: 'a.txt'}, name: 'fs_read', type: 'tool_use'},
        ],
        role: 'assistant',
      },
      {
        content: [
          {
            content: expect.stringContaining('hello from a.txt'),
            is_error: false,
            tool_use_id: 'toolu_read',
            type: 'tool_result',
            ...cached,
          },
        ],
        role: 'user',
      },
    ])
  })

  it('runs parallel read-only calls and answers them all in one user message; a failed call is an error result', async () => {
    const cwd = workspace({'a.txt': 'alpha\n'})
    const model = await fakeModel({
      turns: [
        {
          tool_calls: [
            {arguments: {path: 'a.txt'}, id: 'toolu_a', name: 'fs_read'},
            {arguments: {path: 'missing.txt'}, id: 'toolu_m', name: 'fs_read'},
            {arguments: {path: '.'}, id: 'toolu_l', name: 'fs_list'},
          ],
        },
        {expect: {has_tool_result_for: 'toolu_l'}, text: 'Done.'},
      ],
    })
    const result = await Runner.run(agent, 'look around', {
      client: createAnthropicClient({apiKey: API_KEY, baseURL: model.url}),
      cwd,
    })
    expect(result.finalOutput).toBe('Done.')
    const messages = (
      model.requests[1]?.body as {messages: Array<{role: string; content: Array<Record<string, unknown>>}>}
    ).messages
    expect(messages).toHaveLength(3)
    expect(messages[2]?.content.map((block) => [block.type, block.tool_use_id, block.is_error])).toEqual([
      ['tool_result', 'toolu_a', false],
      ['tool_result', 'toolu_m', true],
      ['tool_result', 'toolu_l', false],
    ])
  })

  it('keeps thinking out of finalOutput and the streamed text, and in rawResponses with its signature', async () => {
    const model = await fakeModel({turns: [{chunk_size: 4, text: '<think>The user greets me.</think>Hello!'}]})
    const shown: string[] = []
    const onEvent = (event: AgentEvent) => event.type === 'text_delta' && shown.push(event.text)
    const result = await Runner.run(agent, 'hi', {
      client: createAnthropicClient({apiKey: API_KEY, baseURL: model.url, thinkingBudgetTokens: 1024}),
      onEvent,
    })
    expect(result.finalOutput).toBe('Hello!')
    expect(shown.join('')).toBe('Hello!')
    expect(result.rawResponses).toMatchObject([
      {
        content: [
          {signature: expect.stringMatching(/.+/), thinking: 'The user greets me.', type: 'thinking'},
          {text: 'Hello!', type: 'text'},
        ],
      },
    ])
  })
})
