import {toolOk} from '@hanzo-dev/sdk'
import {describe, expect, it} from 'vitest'

import {isSummary, modelSummarizer, SUMMARY_SYSTEM_PROMPT} from '../../../src/core/agent/compaction-summary.js'
import {type CompactionResult, SessionCompactor} from '../../../src/core/agent/compaction.js'
import {type LoopOptions, runAgentLoop} from '../../../src/core/agent/loop.js'
import {type ApiClient, type Message, ModelError, type StreamEvent} from '../../../src/core/agent/types.js'

const done = (text: string): StreamEvent[] => [
  {text, type: 'content_delta'},
  {stopReason: 'end_turn', type: 'message_stop'},
]
const callTool = (id: string): StreamEvent[] => [
  {call: {arguments: '{}', id, input: {}, name: 'read'}, type: 'tool_use'},
  {stopReason: 'tool_use', type: 'message_stop'},
]

/**
 * A model that answers the agent's requests from `turns` and the summary requests (told apart
 * by the summary prompt) from `summaries`, and logs both, in order, into `log`.
 */
function model(turns: StreamEvent[][], summaries: StreamEvent[][] = []) {
  const log: string[] = []
  const requests: Message[][] = []
  const client: ApiClient = {
    async *sendMessage(messages) {
      const summary = messages[0]?.content === SUMMARY_SYSTEM_PROMPT
      log.push(summary ? 'summary request' : 'agent request')
      if (!summary) requests.push([...messages])
      const reply = (summary ? summaries : turns).shift()
      if (!reply) throw new Error('script exhausted')
      yield* reply
    },
  }
  return {client, log, requests}
}

function options(client: ApiClient, extra: Partial<LoopOptions> = {}): LoopOptions {
  return {
    client,
    executor: {execute: async () => toolOk('r'.repeat(400)), runsAlone: () => false},
    maxTurns: 10,
    model: 'm',
    sessionId: 's',
    tools: [{description: 'reads', inputSchema: {type: 'object'}, name: 'read'}],
    ...extra,
  }
}

function compaction(client: ApiClient, log: string[], maxTokens: number, reserveRecent = 2) {
  const compacted: CompactionResult[] = []
  return {
    compacted,
    settings: {
      compactor: new SessionCompactor({maxTokens, reserveRecent, summarize: modelSummarizer(client, 'm')}),
      onCompacted: (result: CompactionResult) => compacted.push(result),
      onPreCompact: async () => {
        log.push('pre_compact')
      },
    },
  }
}

const longHistory = (): Message[] => [
  {content: 'system prompt', role: 'system'},
  {content: 'x'.repeat(2000), role: 'user'},
  {content: 'y'.repeat(2000), role: 'assistant', toolCalls: []},
  {content: 'Now fix the bug.', role: 'user'},
]

describe('the agent loop with compaction (HIP-301 §5)', () => {
  it('is opt-in: without it a history far over any budget is sent whole', async () => {
    const {client, log, requests} = model([done('ok')])
    const history = longHistory()
    await runAgentLoop(history, options(client))
    expect(log).toEqual(['agent request'])
    expect(requests[0]).toEqual(longHistory())
  })

  it('compacts before the request once over 90% of max_tokens: the pre_compact hook first, then the summary call', async () => {
    const {client, log, requests} = model(
      [done('Fixed.')],
      [[...done('The user pasted a log.'), {type: 'usage', usage: {inputTokens: 600, outputTokens: 7}}]],
    )
    const {compacted, settings} = compaction(client, log, 1000)
    const history = longHistory()
    const original = [...history]
    const items: unknown[] = []
    const result = await runAgentLoop(
      history,
      options(client, {
        compaction: settings,
        onEvent: (event) =>
          (event.type === 'item_started' || event.type === 'item_completed') && items.push(event.item),
      }),
    )

    expect(log).toEqual(['pre_compact', 'summary request', 'agent request'])
    // Reported as an item of the run, started before the hook and completed before the reply's message.
    const start = {budget: 1000, id: 'compaction-1', tokensBefore: expect.any(Number), type: 'compaction'}
    expect(items).toEqual([
      {...start, status: 'running'},
      {
        ...start,
        compactedCount: 1,
        compactedTokens: expect.any(Number),
        kept: {latestRequest: false, recentTurns: 2, systemPrompt: true, todos: 0},
        status: 'completed',
        strategy: 'summary',
        tokensSaved: compacted[0].tokens_saved,
      },
      {id: 'msg-2', text: '', type: 'message'},
      {id: 'msg-2', text: 'Fixed.', type: 'message'},
    ])
    expect((items[0] as {tokensBefore: number}).tokensBefore).toBeGreaterThan(900)
    expect(requests[0]).toHaveLength(4)
    expect(requests[0][0]).toBe(original[0])
    expect(isSummary(requests[0][1])).toBe(true)
    expect(requests[0].slice(2)).toEqual([original[2], original[3]])
    expect(history).toEqual([...requests[0], {content: 'Fixed.', role: 'assistant', toolCalls: []}])
    expect(compacted).toHaveLength(1)
    expect(compacted[0]).toMatchObject({compacted_count: 1, strategy: 'summary'})
    expect(compacted[0].tokens_saved).toBeGreaterThan(400)
    expect(result.usage).toEqual({inputTokens: 600, outputTokens: 7})
  })

  it('compacts in the middle of a run, when tool results push the history over the budget', async () => {
    const {client, log, requests} = model(
      [callTool('c1'), callTool('c2'), callTool('c3'), done('Read them all.')],
      [done('Read three files.')],
    )
    const {compacted, settings} = compaction(client, log, 300)
    const history: Message[] = [
      {content: 'sys', role: 'system'},
      {content: 'Read the files.', role: 'user'},
    ]
    await runAgentLoop(history, options(client, {compaction: settings}))

    expect(log).toEqual([
      'agent request',
      'agent request',
      'agent request',
      'pre_compact',
      'summary request',
      'agent request',
    ])
    const last = requests[3]
    expect(last.map((m) => (isSummary(m) ? 'summary' : m.role))).toEqual([
      'system',
      'summary',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ])
    expect(last[2]).toEqual({content: 'Read the files.', role: 'user'})
    expect(last.filter((m) => m.role === 'tool').map((m) => m.role === 'tool' && m.toolCallId)).toEqual(['c2', 'c3'])
    expect(compacted[0].compacted_count).toBe(2)
  })

  it('goes on with the digest when the summary call fails', async () => {
    const {client, log, requests} = model(
      [done('ok')],
      [[{error: new ModelError('overloaded', {status: 529}), type: 'error'}]],
    )
    const {compacted, settings} = compaction(client, log, 1000)
    await runAgentLoop(longHistory(), options(client, {compaction: settings}))
    expect(log).toEqual(['pre_compact', 'summary request', 'agent request'])
    expect(compacted[0]).toMatchObject({fallback_reason: 'the summary call failed: overloaded', strategy: 'truncation'})
    expect(requests[0][1].content).toContain('x'.repeat(2000))
  })

  it('neither compacts nor runs the hook under the budget, or when nothing can be compacted', async () => {
    for (const [maxTokens, reserveRecent] of [
      [100_000, 2],
      [100, 3],
    ]) {
      const {client, log, requests} = model([done('ok')])
      const {compacted, settings} = compaction(client, log, maxTokens, reserveRecent)
      await runAgentLoop(longHistory(), options(client, {compaction: settings}))
      expect(log).toEqual(['agent request'])
      expect(requests[0]).toEqual(longHistory())
      expect(compacted).toEqual([])
    }
  })
})
