import {describe, expect, it} from 'vitest'

import {anthropicRequest} from '../../../src/adapters/api/anthropic-request.js'
import type {Message, ModelToolSpec} from '../../../src/core/agent/types.js'
import {breakpoints} from '../../helpers/cache-breakpoints.js'

const tool = (name: string): ModelToolSpec => ({description: name, inputSchema: {type: 'object'}, name})
const EPHEMERAL = {type: 'ephemeral'}
const build = anthropicRequest()

const LONG: Message[] = [
  {content: 'You help.', role: 'system'},
  {content: 'list src', role: 'user'},
  {content: '', role: 'assistant', toolCalls: [{arguments: '{}', id: 't1', input: {}, name: 'fs_list'}]},
  {content: 'a.ts', isError: false, role: 'tool', toolCallId: 't1', toolName: 'fs_list'},
  {content: 'Read a.ts next.', role: 'assistant', toolCalls: [{arguments: '{}', id: 't2', input: {}, name: 'fs_read'}]},
  {content: 'x = 1', isError: false, role: 'tool', toolCallId: 't2', toolName: 'fs_read'},
  {content: 'Done.', role: 'assistant', toolCalls: []},
  {content: 'now b.ts', role: 'user'},
]

describe('Anthropic prompt-cache breakpoints', () => {
  it('mark the last tool, the system prompt and the last two user messages: 4, the most the API takes', () => {
    const body = build(LONG, [tool('fs_list'), tool('fs_read')], {model: 'm'})
    expect(breakpoints(body)).toEqual(['.messages[4].content[0]', '.messages[6].content[0]', '.system[0]', '.tools[1]'])
    expect(body.system).toEqual([{cache_control: EPHEMERAL, text: 'You help.', type: 'text'}])
    expect(body.tools?.[0]).not.toHaveProperty('cache_control')
    expect(body.messages[6]).toEqual({
      content: [{cache_control: EPHEMERAL, text: 'now b.ts', type: 'text'}],
      role: 'user',
    })
  })

  it('mark a tool result when it ends the request, and only what there is in a short one', () => {
    const body = build(LONG.slice(1, 4), [], {model: 'm'})
    expect(breakpoints(body)).toEqual(['.messages[0].content[0]', '.messages[2].content[0]'])
    expect(body.messages[2].content[0]).toMatchObject({
      cache_control: EPHEMERAL,
      tool_use_id: 't1',
      type: 'tool_result',
    })
  })

  it('leave the history untouched: the next request marks other blocks', () => {
    const history = LONG.slice(1)
    const before = structuredClone(history)
    build(history, [], {model: 'm'})
    expect(history).toEqual(before)
    expect(breakpoints(build(history.slice(0, 3), [], {model: 'm'}))).toHaveLength(2)
  })

  it('are left out with promptCache false (a compatible server that refuses cache_control): system stays a string', () => {
    const body = anthropicRequest({promptCache: false})(LONG, [tool('fs_read')], {model: 'm'})
    expect(breakpoints(body)).toEqual([])
    expect(body.system).toBe('You help.')
  })
})
