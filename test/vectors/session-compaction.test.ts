import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {isSummary, type Summarizer} from '../../src/core/agent/compaction-summary.js'
import {SessionCompactor} from '../../src/core/agent/compaction.js'
import {historyTokens} from '../../src/core/agent/token-count.js'
import {type Message, ModelError} from '../../src/core/agent/types.js'
import {REPO_ROOT} from '../helpers/cli.js'

type Content = string | {repeat: string; times: number}

interface VectorMessage {
  role: 'system' | 'user' | 'assistant' | 'tool'
  content: Content
  tool_calls?: Array<{id: string; name: string; arguments: string}>
  tool_call_id?: string
  name?: string
  is_error?: boolean
}

interface Vector {
  name: string
  description: string
  max_tokens: number
  reserve_recent?: number
  summarizer: {returns: string} | {fails: string} | null
  messages: VectorMessage[]
  expect: {
    tokens_before: number
    triggered: boolean
    messages: Array<number | 'summary'>
    compacted_count: number
    strategy: 'none' | 'summary' | 'truncation'
    summary_contains?: string[]
    tokens_saved_at_least?: number
  }
}

const {cases} = JSON.parse(readFileSync(join(REPO_ROOT, 'test-vectors', 'session-compaction.json'), 'utf8')) as {
  cases: Vector[]
}

const text = (content: Content) => (typeof content === 'string' ? content : content.repeat.repeat(content.times))

function toMessage(m: VectorMessage): Message {
  const content = text(m.content)
  switch (m.role) {
    case 'assistant': {
      return {
        content,
        role: 'assistant',
        toolCalls: (m.tool_calls ?? []).map((c) => ({
          arguments: c.arguments,
          id: c.id,
          input: JSON.parse(c.arguments),
          name: c.name,
        })),
      }
    }

    case 'tool': {
      return {content, isError: m.is_error ?? false, role: 'tool', toolCallId: m.tool_call_id!, toolName: m.name!}
    }

    default: {
      return {content, role: m.role}
    }
  }
}

/** README: every tool call has its result and every result its call, in that order. */
function expectCallsPaired(messages: readonly Message[]) {
  const open = new Set<string>()
  for (const m of messages) {
    if (m.role === 'assistant') for (const call of m.toolCalls) open.add(call.id)
    if (m.role === 'tool') expect(open.delete(m.toolCallId), `result ${m.toolCallId} without its call`).toBe(true)
  }

  expect([...open], 'calls without their result').toEqual([])
}

describe('session-compaction vectors (HIP-301 §5)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, vector) => {
    const input = vector.messages.map((m) => toMessage(m))
    const transcripts: string[] = []
    const {summarizer} = vector
    const summarize: Summarizer | undefined = summarizer
      ? async (transcript) => {
          transcripts.push(transcript)
          if ('fails' in summarizer) throw new ModelError(summarizer.fails, {status: 503})
          return {text: summarizer.returns}
        }
      : undefined
    const compactor = new SessionCompactor({
      maxTokens: vector.max_tokens,
      reserveRecent: vector.reserve_recent,
      summarize,
    })
    expect(historyTokens(input)).toBe(vector.expect.tokens_before)
    expect(compactor.shouldCompact(vector.expect.tokens_before)).toBe(vector.expect.triggered)
    expect(compactor.canCompact(input)).toBe(vector.expect.strategy !== 'none')

    const result = await compactor.compact(input)
    expect({compacted_count: result.compacted_count, strategy: result.strategy}).toEqual({
      compacted_count: vector.expect.compacted_count,
      strategy: vector.expect.strategy,
    })
    expect(result.messages).toHaveLength(vector.expect.messages.length)
    for (const [i, expected] of vector.expect.messages.entries()) {
      const actual = result.messages[i]
      if (expected === 'summary') expect(isSummary(actual), `message ${i} is the summary`).toBe(true)
      else expect(actual, `message ${i} is input message ${expected}`).toBe(input[expected])
    }

    expect(result.tokens_saved).toBe(vector.expect.tokens_before - historyTokens(result.messages))
    if (vector.expect.tokens_saved_at_least !== undefined)
      expect(result.tokens_saved).toBeGreaterThanOrEqual(vector.expect.tokens_saved_at_least)
    expectCallsPaired(result.messages)
    if (input.length > 0) expect(result.messages.length).toBeGreaterThan(0)
    const latest = input.findLast((m) => m.role === 'user' && !isSummary(m))
    if (latest) expect(result.messages).toContain(latest)

    const summary = result.messages.find((m) => isSummary(m) && !input.includes(m))
    expect(transcripts).toHaveLength(summarize && result.strategy !== 'none' ? 1 : 0)
    if (result.strategy === 'summary' && summarizer && 'returns' in summarizer)
      expect(summary?.content).toContain(summarizer.returns)
    for (const part of vector.expect.summary_contains ?? []) expect(summary?.content).toContain(part)
  })
})
