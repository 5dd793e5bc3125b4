import {describe, expect, it} from 'vitest'

import {anthropicRequest, DEFAULT_MAX_TOKENS} from '../../../src/adapters/api/anthropic-request.js'
import type {Message, ModelToolSpec} from '../../../src/core/agent/types.js'

const READ: ModelToolSpec = {
  description: 'Read a file',
  inputSchema: {properties: {path: {type: 'string'}}, type: 'object'},
  name: 'fs_read',
}
const THINKING = {signature: 'c2lnbmVk', thinking: 'List first.', type: 'thinking'} as const
const REDACTED = {data: 'ZW5jcnlwdGVk', type: 'redacted_thinking'} as const

// The request's shape; where cache breakpoints go is anthropic-cache.test.ts's.
const build = anthropicRequest({promptCache: false})

describe('the Anthropic request', () => {
  it('sends the model, the default max_tokens, the system prompt, the tools, and asks for a stream', () => {
    const body = build(
      [
        {content: 'You are terse.', role: 'system'},
        {content: 'hi', role: 'user'},
      ],
      [READ],
      {model: 'claude-sonnet-4-5'},
    )
    expect(body).toEqual({
      max_tokens: DEFAULT_MAX_TOKENS,
      messages: [{content: [{text: 'hi', type: 'text'}], role: 'user'}],
      model: 'claude-sonnet-4-5',
      stream: true,
      system: 'You are terse.',
      tools: [{description: 'Read a file', input_schema: READ.inputSchema, name: 'fs_read'}],
    })
  })

  it('leaves out system and tools when there are none, and takes the caller max_tokens', () => {
    expect(build([{content: 'hi', role: 'user'}], [], {maxTokens: 100, model: 'm'})).toEqual({
      max_tokens: 100,
      messages: [{content: [{text: 'hi', type: 'text'}], role: 'user'}],
      model: 'm',
      stream: true,
    })
  })

  it('joins every system message (compaction adds one mid-conversation) into the system prompt', () => {
    const body = build(
      [
        {content: 'Be brief.', role: 'system'},
        {content: 'hi', role: 'user'},
        {content: 'Summary of earlier turns.', role: 'system'},
      ],
      [],
      {model: 'm'},
    )
    expect(body.system).toBe('Be brief.\n\nSummary of earlier turns.')
    expect(body.messages).toHaveLength(1)
  })

  it('sends thinking back first and unchanged, then text, then tool_use; consecutive results share one user message', () => {
    const history: Message[] = [
      {content: 'What is in src?', role: 'user'},
      {
        content: 'Looking.',
        reasoning: [THINKING, REDACTED],
        role: 'assistant',
        toolCalls: [
          {arguments: '{"path":"src"}', id: 'toolu_1', input: {path: 'src'}, name: 'fs_list'},
          {arguments: '{"path": ', id: 'toolu_2', input: {}, name: 'fs_read'},
        ],
      },
      {content: 'index.ts', isError: false, role: 'tool', toolCallId: 'toolu_1', toolName: 'fs_list'},
      {content: 'Error: bad arguments', isError: true, role: 'tool', toolCallId: 'toolu_2', toolName: 'fs_read'},
      {content: 'and be quick', role: 'user'},
    ]
    expect(build(history, [], {model: 'm'}).messages).toEqual([
      {content: [{text: 'What is in src?', type: 'text'}], role: 'user'},
      {
        content: [
          THINKING,
          REDACTED,
          {text: 'Looking.', type: 'text'},
          {id: 'toolu_1', input: {path: 'src'}, name: 'fs_list', type: 'tool_use'},
          {id: 'toolu_2', input: {}, name: 'fs_read', type: 'tool_use'},
        ],
        role: 'assistant',
      },
      {
        content: [
          {content: 'index.ts', is_error: false, tool_use_id: 'toolu_1', type: 'tool_result'},
          {content: 'Error: bad arguments', is_error: true, tool_use_id: 'toolu_2', type: 'tool_result'},
          {text: 'and be quick', type: 'text'},
        ],
        role: 'user',
      },
    ])
  })

  it('never sends an empty text block: an empty reply is dropped, an empty result has no content', () => {
    const history: Message[] = [
      {content: 'one', role: 'user'},
      {content: '', role: 'assistant', toolCalls: []},
      {content: 'two', role: 'user'},
      {content: '', role: 'assistant', toolCalls: [{arguments: '', id: 'toolu_1', input: {}, name: 'exec'}]},
      {content: '', isError: false, role: 'tool', toolCallId: 'toolu_1', toolName: 'exec'},
    ]
    expect(build(history, [], {model: 'm'}).messages).toEqual([
      {
        content: [
          {text: 'one', type: 'text'},
          {text: 'two', type: 'text'},
        ],
        role: 'user',
      },
      {content: [{id: 'toolu_1', input: {}, name: 'exec', type: 'tool_use'}], role: 'assistant'},
      {content: [{is_error: false, tool_use_id: 'toolu_1', type: 'tool_result'}], role: 'user'},
    ])
  })

  it('turns on extended thinking with its budget, spent from a default max_tokens that grows by it', () => {
    const body = anthropicRequest({thinkingBudgetTokens: 4000})([{content: 'hi', role: 'user'}], [], {model: 'm'})
    expect(body).toMatchObject({
      max_tokens: DEFAULT_MAX_TOKENS + 4000,
      thinking: {budget_tokens: 4000, type: 'enabled'},
    })
  })
})
