import {describe, expect, it} from 'vitest'

import {latestPlan, SUMMARY_SYSTEM_PROMPT} from '../../../src/core/agent/compaction-summary.js'
import {MAX_SUMMARY_FAILURES, SessionCompactor, SummaryFailures} from '../../../src/core/agent/compaction.js'
import type {Message} from '../../../src/core/agent/types.js'

const user = (content: string): Message => ({content, role: 'user'})
const answer = (content: string): Message => ({content, role: 'assistant', toolCalls: []})
const history = (): Message[] => [
  {content: 'sys', role: 'system'},
  user('Fix the parser.'),
  answer('Looking.'),
  user('Then update the changelog.'),
  answer('Sure.'),
]

/** A summarizer that fails `failing` times, then writes a summary; it counts its calls. */
function summarizer(failing: number) {
  const calls = {count: 0}
  const summarize = async () => {
    calls.count++
    if (calls.count <= failing) throw new Error('503 overloaded')
    return {text: 'The user wants the parser fixed.'}
  }

  return {calls, summarize}
}

describe('summary failures in a row (no thrash)', () => {
  it('falls back to the digest and says why on each failure; after the third, stops calling and says so once', async () => {
    const {calls, summarize} = summarizer(Number.POSITIVE_INFINITY)
    const failures = new SummaryFailures()
    const compactor = new SessionCompactor({failures, maxTokens: 100, reserveRecent: 1, summarize})
    const reasons: Array<string | undefined> = []
    for (let i = 0; i < 5; i++) {
      const result = await compactor.compact(history())
      expect(result.strategy).toBe('truncation')
      expect(result.messages[1].content).toContain('User: Fix the parser.')
      reasons.push(result.fallback_reason)
    }

    expect(calls.count).toBe(MAX_SUMMARY_FAILURES)
    expect(reasons[0]).toBe('the summary call failed: 503 overloaded')
    expect(reasons[1]).toBe('the summary call failed: 503 overloaded')
    expect(reasons[2]).toMatch(/503 overloaded; 3 failures in a row, so the next compactions make no summary call/)
    expect(reasons.slice(3)).toEqual([
      'no summary call: the last 3 failed in a row',
      'no summary call: the last 3 failed in a row',
    ])
    expect(failures.stopped).toBe(true)
  })

  it('starts again after a summary the user asked for succeeds (/compact), and a success resets the count', async () => {
    const {calls, summarize} = summarizer(MAX_SUMMARY_FAILURES)
    const failures = new SummaryFailures()
    const compactor = new SessionCompactor({failures, maxTokens: 100, reserveRecent: 1, summarize})
    for (let i = 0; i < MAX_SUMMARY_FAILURES; i++) await compactor.compact(history())
    expect((await compactor.compact(history())).strategy).toBe('truncation')
    expect(calls.count).toBe(MAX_SUMMARY_FAILURES)

    expect((await compactor.compact(history(), {retrySummary: true})).strategy).toBe('summary')
    expect(failures.count).toBe(0)
    expect((await compactor.compact(history())).strategy).toBe('summary')
    expect(calls.count).toBe(MAX_SUMMARY_FAILURES + 2)
  })

  it('counts failures in a row only: a success in between starts the count again', async () => {
    let call = 0
    const failures = new SummaryFailures()
    const compactor = new SessionCompactor({
      failures,
      maxTokens: 100,
      reserveRecent: 1,
      async summarize() {
        call++
        if (call === 3) return {text: 'ok'}
        throw new Error('boom')
      },
    })
    for (let i = 0; i < 4; i++) await compactor.compact(history())
    expect(failures.count).toBe(1)
    expect(failures.stopped).toBe(false)
  })
})

describe('what a compaction keeps verbatim', () => {
  it('reports the system prompt, the latest request and the recent turns, and the tokens it summarized', async () => {
    const compactor = new SessionCompactor({maxTokens: 100, reserveRecent: 1, summarize: summarizer(0).summarize})
    const result = await compactor.compact([...history(), user('And add a test.')])
    expect(result.kept).toEqual({latestRequest: false, recentTurns: 1, systemPrompt: true, todos: 0})
    expect(result.compacted_count).toBe(4)
    expect(result.compacted_tokens).toBeGreaterThan(0)
    const moved = await compactor.compact([...history(), user('And add a test.'), answer('Adding.')])
    expect(moved.kept.latestRequest).toBe(true)
  })

  it('carries the last todo list of the compacted range into the summary, verbatim', async () => {
    const todos = [
      {content: 'Fix the parser', status: 'completed'},
      {content: 'Update the changelog', status: 'pending'},
    ]
    const plan = (id: string, list: unknown): Message => ({
      content: '',
      role: 'assistant',
      toolCalls: [{arguments: JSON.stringify({todos: list}), id, input: {}, name: 'todo_write'}],
    })
    const planResult = (id: string, isError: boolean): Message => ({
      content: isError ? 'refused' : 'updated',
      isError,
      role: 'tool',
      toolCallId: id,
      toolName: 'todo_write',
    })
    const messages: Message[] = [
      {content: 'sys', role: 'system'},
      user('Fix the parser, then update the changelog.'),
      plan('t1', todos),
      planResult('t1', false),
      plan('t2', [{content: 'refused', status: 'pending'}]),
      planResult('t2', true),
      answer('Done with the parser.'),
      user('Go on.'),
      answer('Working.'),
    ]
    expect(latestPlan(messages)).toEqual(todos)
    const compactor = new SessionCompactor({maxTokens: 100, reserveRecent: 1, summarize: summarizer(0).summarize})
    const result = await compactor.compact(messages)
    expect(result.kept.todos).toBe(2)
    expect(result.messages[1].content).toContain('- [completed] Fix the parser\n- [pending] Update the changelog')
    expect(result.messages[1].content).not.toContain('refused')
  })

  it("asks the summary for the user's pending instructions, verbatim", () => {
    expect(SUMMARY_SYSTEM_PROMPT).toContain('## Pending instructions')
    expect(SUMMARY_SYSTEM_PROMPT).toMatch(/instruction of the user not yet carried out.*quoted verbatim/)
  })
})
