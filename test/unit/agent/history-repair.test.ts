import {describe, expect, it} from 'vitest'

import {INTERRUPTED_RESULT, repairHistory} from '../../../src/core/agent/history-repair.js'
import type {Message} from '../../../src/core/agent/types.js'

const user = (content: string): Message => ({content, role: 'user'})
const reply = (content: string, ...ids: string[]): Message => ({
  content,
  role: 'assistant',
  toolCalls: ids.map((id) => ({arguments: '{}', id, input: {}, name: 'exec'})),
})
const result = (id: string): Message => ({
  content: `out ${id}`,
  isError: false,
  role: 'tool',
  toolCallId: id,
  toolName: 'exec',
})
const interrupted = (id: string): Message => ({
  content: INTERRUPTED_RESULT,
  isError: true,
  role: 'tool',
  toolCallId: id,
  toolName: 'exec',
})

describe('repairHistory', () => {
  it('leaves a valid conversation as it is, the same messages', () => {
    const history = [{content: 'sys', role: 'system'} as const, user('a'), reply('', 'c1'), result('c1'), reply('done')]
    const repaired = repairHistory(history)
    expect(repaired).toEqual(history)
    expect(repaired.every((message, index) => message === history[index])).toBe(true)
  })

  it('answers a call left without its result (a kill or Esc during it) as interrupted, after the results it got', () => {
    expect(repairHistory([user('a'), reply('Running.', 'c1', 'c2'), result('c2'), user('go on')])).toEqual([
      user('a'),
      reply('Running.', 'c1', 'c2'),
      result('c2'),
      interrupted('c1'),
      user('go on'),
    ])
  })

  it('answers the calls of the last reply, whose results never came', () => {
    expect(repairHistory([user('a'), reply('', 'c1')])).toEqual([user('a'), reply('', 'c1'), interrupted('c1')])
  })

  it('drops a result that answers no call of the reply before it', () => {
    expect(
      repairHistory([user('a'), result('lost'), reply('', 'c1'), result('c1'), result('c1'), result('c9')]),
    ).toEqual([user('a'), reply('', 'c1'), result('c1')])
  })

  it('keeps the text of a reply cut short, and two user messages in a row', () => {
    const history = [user('a'), reply('Half a sent'), user('b'), user('c')]
    expect(repairHistory(history)).toEqual(history)
  })
})
