import {describe, expect, it} from 'vitest'

import {
  COMPACTED,
  isSummary,
  modelSummarizer,
  renderTranscript,
  SUMMARY_MARKER,
  SUMMARY_SYSTEM_PROMPT,
  summaryMessage,
  truncationDigest,
} from '../../../src/core/agent/compaction-summary.js'
import {DEFAULT_RESERVE_RECENT, SessionCompactor} from '../../../src/core/agent/compaction.js'
import {type ApiClient, type Message, ModelError, type StreamEvent} from '../../../src/core/agent/types.js'

const system: Message = {content: 'Be a coding agent.', role: 'system'}
const user = (content: string): Message => ({content, role: 'user'})
const answer = (content: string): Message => ({content, role: 'assistant', toolCalls: []})
const calling = (id: string, name: string, args: string): Message => ({
  content: '',
  role: 'assistant',
  toolCalls: [{arguments: args, id, input: {}, name}],
})
const result = (id: string, name: string, content: string, isError = false): Message => ({
  content,
  isError,
  role: 'tool',
  toolCallId: id,
  toolName: name,
})
const history: Message[] = [
  system,
  user('Fix the parser.'),
  answer('Looking.'),
  user('Keep the API.'),
  answer('Sure.'),
  user('Run the tests.'),
  answer('They pass.'),
]

function replying(
  ...events: StreamEvent[]
): ApiClient & {requests: Array<{messages: readonly Message[]; tools: readonly unknown[]; signal?: AbortSignal}>} {
  const requests: Array<{messages: readonly Message[]; tools: readonly unknown[]; signal?: AbortSignal}> = []
  return {
    requests,
    async *sendMessage(messages, tools, options) {
      requests.push({messages, signal: options.signal, tools})
      yield* events
    },
  }
}

describe('SessionCompactor', () => {
  it('rejects a budget or reserve that is not a positive integer', () => {
    expect(() => new SessionCompactor({maxTokens: 0})).toThrow(RangeError)
    expect(() => new SessionCompactor({maxTokens: 1.5})).toThrow(/max_tokens/)
    expect(() => new SessionCompactor({maxTokens: 100, reserveRecent: 0})).toThrow(/reserve_recent/)
    expect(new SessionCompactor({maxTokens: 100}).reserveRecent).toBe(DEFAULT_RESERVE_RECENT)
  })

  it('triggers above 90% of max_tokens, not at it', () => {
    const compactor = new SessionCompactor({maxTokens: 1000})
    expect(compactor.shouldCompact(900)).toBe(false)
    expect(compactor.shouldCompact(901)).toBe(true)
  })

  it('hands the summarizer the compacted range as a transcript, and the signal', async () => {
    const seen: Array<{transcript: string; signal?: AbortSignal}> = []
    const compactor = new SessionCompactor({
      maxTokens: 10,
      reserveRecent: 2,
      summarize: async (transcript, signal) => {
        seen.push({signal, transcript})
        return {text: 'Goals: fix the parser, keep the API.', usage: {inputTokens: 40, outputTokens: 9}}
      },
    })
    const signal = new AbortController().signal
    const compacted = await compactor.compact(history, {signal})
    expect(seen).toEqual([
      {signal, transcript: 'User: Fix the parser.\n\nAssistant: Looking.\n\nUser: Keep the API.\n\nAssistant: Sure.'},
    ])
    expect(compacted.messages[1]).toEqual(summaryMessage('Goals: fix the parser, keep the API.'))
    expect(compacted.usage).toEqual({inputTokens: 40, outputTokens: 9})
    expect(compacted.fallback_reason).toBeUndefined()
  })

  it('falls back to the digest on any failure of the summary call, and says why', async () => {
    const failing = new SessionCompactor({
      maxTokens: 10,
      reserveRecent: 2,
      summarize: () => Promise.reject(new ModelError('overloaded', {status: 529})),
    })
    const compacted = await failing.compact(history)
    expect(compacted).toMatchObject({fallback_reason: 'the summary call failed: overloaded', strategy: 'truncation'})
    expect(compacted.messages[1].content).toContain('User: Keep the API.')
  })

  it('does not change the messages it was given', async () => {
    const copy = structuredClone(history)
    await new SessionCompactor({maxTokens: 10, reserveRecent: 1}).compact(history)
    expect(history).toEqual(copy)
  })
})

describe('the summary message', () => {
  it('is a user message that starts with the marker, and is recognised as a summary', () => {
    const message = summaryMessage('text')
    expect(message).toEqual({content: `${SUMMARY_MARKER}\ntext`, role: 'user'})
    expect(isSummary(message)).toBe(true)
    expect(isSummary({content: message.content, role: 'assistant', toolCalls: []})).toBe(false)
    expect(isSummary(user('Please summarize.'))).toBe(false)
  })

  it('transcript: marks failed results, cuts long ones, and shows an earlier summary as such', () => {
    const transcript = renderTranscript([
      summaryMessage('The user wants a CLI.'),
      calling('c1', 'fs_read', '{"path":"big.log"}'),
      result('c1', 'fs_read', 'x'.repeat(50_000)),
      calling('c2', 'exec', '{"command":"npm test"}'),
      result('c2', 'exec', '1 failing', true),
    ])
    expect(transcript).toContain('Summary of what came before:\nThe user wants a CLI.')
    expect(transcript).toContain('Assistant called fs_read {"path":"big.log"}')
    expect(transcript).toContain('[... 49000 more characters]')
    expect(transcript.length).toBeLessThan(2000)
    expect(transcript).toContain('Result of exec, failed: 1 failing')
  })

  it('digest: user messages verbatim, tool calls with compacted results, failures marked, no assistant text', () => {
    const digest = truncationDigest(
      [
        user('Fix the parser.\nKeep the API.'),
        answer('I think the bug is in line 3.'),
        calling('c1', 'fs_write', JSON.stringify({content: 'y'.repeat(5000), path: 'a.ts'})),
        result('c1', 'fs_write', 'denied', true),
      ],
      'the summary was empty',
    )
    expect(digest).toContain('(the summary was empty)')
    expect(digest).toContain('User: Fix the parser.\nKeep the API.')
    expect(digest).not.toContain('line 3')
    expect(digest).toMatch(
      new RegExp(
        `Tool call: fs_write \\{"content":"y+\\[\\.\\.\\. \\d+ more characters\\] -> \\${COMPACTED} \\(failed\\)`,
      ),
    )
    expect(digest.length).toBeLessThan(1000)
  })
})

describe('modelSummarizer', () => {
  it('makes one dedicated request: the summary prompt, the transcript, no tools', async () => {
    const client = replying({text: 'Summary.', type: 'content_delta'}, {stopReason: 'end_turn', type: 'message_stop'})
    const signal = new AbortController().signal
    await expect(modelSummarizer(client, 'm')('User: hi', signal)).resolves.toEqual({
      text: 'Summary.',
      usage: {inputTokens: 0, outputTokens: 0},
    })
    expect(client.requests).toEqual([
      {
        messages: [
          {content: SUMMARY_SYSTEM_PROMPT, role: 'system'},
          {content: 'User: hi', role: 'user'},
        ],
        signal,
        tools: [],
      },
    ])
  })

  it('leaves out a think block and adds up usage', async () => {
    const client = replying(
      {text: '<think>what matters?</think>\n', type: 'content_delta'},
      {text: 'The user wants X.', type: 'content_delta'},
      {type: 'usage', usage: {inputTokens: 100, outputTokens: 20}},
      {stopReason: 'end_turn', type: 'message_stop'},
    )
    await expect(modelSummarizer(client, 'm')('User: X')).resolves.toEqual({
      text: 'The user wants X.',
      usage: {inputTokens: 100, outputTokens: 20},
    })
  })

  it('throws the stream error, which the compactor turns into the digest', async () => {
    const client = replying({
      error: new ModelError('quota exceeded', {code: 'insufficient_quota', status: 429}),
      type: 'error',
    })
    await expect(modelSummarizer(client, 'm')('User: X')).rejects.toThrow('quota exceeded')
    const compacted = await new SessionCompactor({
      maxTokens: 10,
      reserveRecent: 2,
      summarize: modelSummarizer(client, 'm'),
    }).compact(history)
    expect(compacted).toMatchObject({
      fallback_reason: 'the summary call failed: quota exceeded',
      strategy: 'truncation',
    })
  })

  it('an answer that is only a think block is empty: the digest is used', async () => {
    const client = replying(
      {text: '<think>hmm</think>', type: 'content_delta'},
      {stopReason: 'end_turn', type: 'message_stop'},
    )
    const compacted = await new SessionCompactor({
      maxTokens: 10,
      reserveRecent: 2,
      summarize: modelSummarizer(client, 'm'),
    }).compact(history)
    expect(compacted).toMatchObject({fallback_reason: 'the summary was empty', strategy: 'truncation'})
  })
})
