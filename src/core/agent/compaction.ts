import type {CompactionKept} from '@hanzo-dev/sdk'

import {
  isSummary,
  latestPlan,
  renderTranscript,
  type Summarizer,
  summaryMessage,
  truncationDigest,
} from './compaction-summary.js'
import {historyTokens} from './token-count.js'
import type {Message, Usage} from './types.js'

/**
 * SessionCompactor (HIP-301 §5): fits a conversation back into its token budget by replacing
 * the middle of the history with one summary message.
 *
 * **Turns.** `reserve_recent` counts turns, and a turn is one user message, or one assistant
 * message together with the tool results that follow it (a system message past index 0 is a
 * turn of its own; a tool result with no assistant message before it joins the turn before).
 * So a tool call and its result are always kept or compacted together, parallel calls included,
 * and a single user request answered by many tool rounds is many turns: the last rounds stay,
 * the earlier ones are compacted.
 *
 * **What stays.** The system prompt (index 0, when it is a system message), then the summary,
 * then the latest user request verbatim if it was in the compacted range (the summary never
 * stands in for what the user is asking now), then the last `reserve_recent` turns unchanged.
 * Everything else between the system prompt and those turns is compacted, an earlier summary
 * included. Nothing is compacted — `strategy: 'none'`, the same messages — when the range holds
 * nothing but an earlier summary and the latest request: another summary would only rewrite
 * that one. So a history is never emptied, and an empty one stays empty. The recent turns are
 * never cut: a history whose last turns alone exceed the budget stays over it.
 *
 * **The summary.** The `summarize` call (the session's model, see `modelSummarizer`) writes
 * it from the range as a transcript, tool results cut short; when it throws or answers nothing
 * (or there is no summarizer) the truncation digest takes its place: the user's messages
 * verbatim and the tool calls made, their results `[compacted]` (`strategy: 'truncation'`).
 * After MAX_SUMMARY_FAILURES failed summary calls in a row (`SummaryFailures`, which a session
 * keeps across its runs) no more are made: each compaction is the digest until a summary the
 * user asks for (`/compact`, `retrySummary`) succeeds, or the session restarts. Whatever wrote
 * it, the plan the compacted range left (the last todo_write) follows the summary verbatim.
 *
 * `compact` always compacts what it can; when to call it is the caller's: the agent loop does
 * when `shouldCompact` says the history is past 90% of `max_tokens`.
 */
export const DEFAULT_RESERVE_RECENT = 4

/** Summary calls after which, all failed in a row, compaction stops asking the model (no thrash). */
export const MAX_SUMMARY_FAILURES = 3

/** The summary calls that failed in a row, shared by the compactions of a session. */
export class SummaryFailures {
  count = 0

  get stopped(): boolean {
    return this.count >= MAX_SUMMARY_FAILURES
  }
}

export interface SessionCompactorOptions {
  /** The conversation's token budget (`max_tokens` in settings). */
  maxTokens: number
  /** Turns kept whole at the end (`reserve_recent`); default 4. */
  reserveRecent?: number
  /** Writes the summary; absent, every compaction is the truncation digest. */
  summarize?: Summarizer
  /** Shared across compactions; absent, each compaction tries the summary call. */
  failures?: SummaryFailures
}

/** A compaction starting: the history's estimated tokens, past 90% of the budget. */
export interface CompactionStart {
  tokensBefore: number
  budget: number
}

export interface CompactionResult {
  messages: Message[]
  /** How many of the given messages the summary replaced. */
  compacted_count: number
  /** Their estimated tokens. */
  compacted_tokens: number
  kept: CompactionKept
  /** Estimated tokens before minus after (see token-count.ts); negative when a summary outgrew a small range. */
  tokens_saved: number
  /** `summary`: the model wrote it; `truncation`: the digest; `none`: nothing to compact. */
  strategy: 'none' | 'summary' | 'truncation'
  /** Why the model's summary was not used, for `truncation` after a summary call. */
  fallback_reason?: string
  /** What the summary call cost, when one was made and its stream said. */
  usage?: Usage
}

interface Plan {
  head: Message[]
  compacted: Message[]
  latestRequest?: Message
  recent: Message[]
}

export class SessionCompactor {
  readonly maxTokens: number
  readonly reserveRecent: number
  private readonly summarize?: Summarizer
  private readonly failures?: SummaryFailures

  constructor(options: SessionCompactorOptions) {
    const {maxTokens, reserveRecent = DEFAULT_RESERVE_RECENT} = options
    if (!Number.isSafeInteger(maxTokens) || maxTokens < 1)
      throw new RangeError(`max_tokens must be a positive integer, not ${maxTokens}`)
    if (!Number.isSafeInteger(reserveRecent) || reserveRecent < 1)
      throw new RangeError(`reserve_recent must be a positive integer, not ${reserveRecent}`)
    this.maxTokens = maxTokens
    this.reserveRecent = reserveRecent
    this.summarize = options.summarize
    this.failures = options.failures
  }

  /** HIP-301: compaction starts when the history's tokens exceed 0.9 × max_tokens. */
  shouldCompact(tokens: number): boolean {
    // In integers: 0.9 * maxTokens is not exact in floating point.
    return tokens * 10 > this.maxTokens * 9
  }

  /** Whether `compact` would change anything. */
  canCompact(messages: readonly Message[]): boolean {
    return this.plan(messages) !== undefined
  }

  /** `retrySummary`: make the summary call even after MAX_SUMMARY_FAILURES (the user asked for this one). */
  async compact(
    messages: readonly Message[],
    options: {signal?: AbortSignal; retrySummary?: boolean} = {},
  ): Promise<CompactionResult> {
    const plan = this.plan(messages)
    const kept = {
      latestRequest: plan?.latestRequest !== undefined,
      recentTurns: plan ? this.reserveRecent : 0,
      systemPrompt: messages[0]?.role === 'system',
      todos: 0,
    }
    if (!plan)
      return {compacted_count: 0, compacted_tokens: 0, kept, messages: [...messages], strategy: 'none', tokens_saved: 0}
    const summary = await this.writeSummary(plan.compacted, options)
    const todos = latestPlan(plan.compacted)
    const recentPlan = latestPlan(plan.recent)
    // A plan the recent turns set again is already there verbatim.
    const carried = recentPlan ? undefined : todos
    const compacted = [
      ...plan.head,
      summaryMessage(summary.text, carried),
      ...(plan.latestRequest ? [plan.latestRequest] : []),
      ...plan.recent,
    ].map((message) => withoutImages(message))
    return {
      compacted_count: plan.compacted.length,
      compacted_tokens: historyTokens(plan.compacted),
      kept: {...kept, todos: carried?.length ?? 0},
      messages: compacted,
      strategy: summary.strategy,
      tokens_saved: historyTokens(messages) - historyTokens(compacted),
      ...(summary.reason !== undefined && {fallback_reason: summary.reason}),
      ...(summary.usage && {usage: summary.usage}),
    }
  }

  private plan(messages: readonly Message[]): Plan | undefined {
    const headLength = messages[0]?.role === 'system' ? 1 : 0
    const turnStarts: number[] = []
    for (let i = headLength; i < messages.length; i++)
      if (messages[i].role !== 'tool' || i === headLength) turnStarts.push(i)
    if (turnStarts.length <= this.reserveRecent) return undefined
    const recentStart = turnStarts[turnStarts.length - this.reserveRecent]
    const latest = messages.findLastIndex((m) => m.role === 'user' && !isSummary(m))
    const latestRequest = latest >= headLength && latest < recentStart ? messages[latest] : undefined
    const compacted = messages.slice(headLength, recentStart).filter((m) => m !== latestRequest)
    if (compacted.every((m) => isSummary(m))) return undefined
    return {compacted, head: messages.slice(0, headLength), latestRequest, recent: messages.slice(recentStart)}
  }

  private async writeSummary(
    compacted: Message[],
    options: {signal?: AbortSignal; retrySummary?: boolean},
  ): Promise<{text: string; strategy: 'summary' | 'truncation'; reason?: string; usage?: Usage}> {
    const digest = (reason: string) => ({
      reason,
      strategy: 'truncation' as const,
      text: truncationDigest(compacted, reason),
    })
    if (!this.summarize) return digest('no summarizer')
    const {failures} = this
    if (failures?.stopped && !options.retrySummary)
      return digest(`no summary call: the last ${failures.count} failed in a row`)
    let reason: string
    let usage: Usage | undefined
    try {
      const reply = await this.summarize(renderTranscript(compacted), options.signal)
      usage = reply.usage
      const text = reply.text.trim()
      if (text) {
        if (failures) failures.count = 0
        return {strategy: 'summary', text, usage}
      }

      reason = 'the summary was empty'
    } catch (error) {
      // Any failure, not only a ModelError: compaction must not end the run it is making room for.
      reason = `the summary call failed: ${error instanceof Error ? error.message : String(error)}`
    }

    if (failures && ++failures.count === MAX_SUMMARY_FAILURES)
      reason += `; ${MAX_SUMMARY_FAILURES} failures in a row, so the next compactions make no summary call until /compact makes one or the session restarts`
    return {...digest(reason), usage}
  }
}

/**
 * A compaction drops the images of the messages it keeps too: they are the history's largest
 * parts and the model has seen them; it is told which were there, and can read one again.
 */
function withoutImages(message: Message): Message {
  if ((message.role !== 'user' && message.role !== 'tool') || !message.images) return message
  const {images, ...rest} = message
  const names = images.map((image) => image.name).join(', ')
  return {
    ...rest,
    content: `${rest.content}\n[image ${names} was shown here; removed by compaction, read it again to see it]`,
  }
}
