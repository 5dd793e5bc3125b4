import {describe, expect, it} from 'vitest'

import {conversationLines} from '../../../src/core/sessions/history.js'
import type {MessageLine, TranscriptLine} from '../../../src/core/sessions/transcript.js'

const user = (content: string): MessageLine => ({content, type: 'user'})
const calls = (...ids: string[]): MessageLine => ({
  content: '',
  tool_calls: ids.map((id) => ({arguments: '{}', id, name: 'fs_read'})),
  type: 'assistant',
})
const result = (id: string): MessageLine => ({
  content: `out ${id}`,
  is_error: false,
  tool_call_id: id,
  tool_name: 'fs_read',
  type: 'tool_result',
})
const usage: TranscriptLine = {at: 't', input_tokens: 1, model: 'm', output_tokens: 1, turn: 1, type: 'usage'}

describe('conversationLines', () => {
  it('keeps the messages in order and nothing else', () => {
    expect(
      conversationLines([
        user('a'),
        usage,
        calls('c1'),
        result('c1'),
        {at: 't', cwd: '/', model: 'm', provider: 'p', type: 'run'},
        user('b'),
      ]),
    ).toEqual([user('a'), calls('c1'), result('c1'), user('b')])
  })

  it('starts over at a history line (a compaction)', () => {
    const summary = user('[summary]')
    expect(
      conversationLines([
        user('a'),
        calls('c1'),
        result('c1'),
        {at: 't', messages: [summary, user('a')], type: 'history'},
        user('b'),
      ]),
    ).toEqual([summary, user('a'), user('b')])
  })

  it("starts over at a run with a conversation of its own (a stage's): the session's is its last run's", () => {
    const stage: TranscriptLine = {
      at: 't',
      cwd: '/',
      label: 'review',
      model: 'm',
      new_conversation: true,
      provider: 'p',
      type: 'run',
    }
    expect(conversationLines([user('plan it'), calls('c1'), result('c1'), stage, user('review it')])).toEqual([
      user('review it'),
    ])
  })
})
