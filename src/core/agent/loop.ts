import type {AgentEvent, LoopStop} from '@hanzo-dev/sdk'
import {type ToolResult, toolError} from '@hanzo-dev/sdk/tools'
import {ToolFatalError} from '@hanzo-dev/sdk/errors'

import {JsonNestingError, type JsonSyntaxError, parseJsonText} from '../config/json-text.js'
import {CANCELLED} from '../tools/pipeline.js'
import type {CompactionResult, CompactionStart, SessionCompactor} from './compaction.js'
import {imagesRefused, modelTakesImages} from './model-images.js'
import {stripThinkBlock, ThinkBlockFilter} from './think.js'
import {TokenLedger} from './token-count.js'
import {TurnItemEmitter} from './turn-items.js'
import type {
  ApiClient,
  Message,
  ModelToolSpec,
  ReasoningBlock,
  StopReason,
  ToolCallRequest,
  ToolExecutor,
  Usage,
} from './types.js'

export type {AgentEvent, LoopStop} from '@hanzo-dev/sdk'

export interface LoopOptions {
  client: ApiClient
  /** Runs the calls; `runsAlone` (the ToolPipeline has it) lets read-only and concurrent calls run side by side. */
  executor: ToolExecutor & {runsAlone?(name: string): boolean}
  /** A function when the tools may change between model requests (an MCP server that arrives late). */
  tools: readonly ModelToolSpec[] | (() => readonly ModelToolSpec[])
  model: string
  sessionId: string
  /** The most model requests one run makes. */
  maxTurns: number
  /** Asked before each model request (a compaction's summary too): true ends the run as `budget`. */
  overBudget?: () => boolean
  /** Whether the model sees images (a tool's images go to it); absent, judged by its name (model-images.ts). */
  images?: boolean
  /** The most tokens one reply may have (sent with each request). */
  maxTokens?: number
  /** Opt-in (HIP-301 §5): absent, the history is sent whole, however long it grows. */
  compaction?: LoopCompaction
  signal?: AbortSignal
  onEvent?: (event: AgentEvent) => void
}

export interface LoopCompaction {
  /** Holds the conversation's budget (`max_tokens`) and `reserve_recent`. */
  compactor: SessionCompactor
  /** When a compaction starts (before `onPreCompact`): the history's estimated tokens and the budget they crossed 90% of. */
  onStart?: (start: CompactionStart) => void
  /** The `pre_compact` session event: awaited before each compaction, which goes on after it. */
  onPreCompact?: () => Promise<void>
  /** After the history was compacted (not when there was nothing to compact). */
  onCompacted?: (result: CompactionResult) => void
}

export interface LoopResult {
  /** The last reply's text, without a leading think block. */
  finalOutput: string
  stop: LoopStop
  turns: number
  usage: Usage
  /** Each reply as the provider sent it, think blocks included. */
  rawResponses: unknown[]
}

/**
 * The one agent loop (HIP-301 §2; the CLI and the library run it): stream a reply, run its tool
 * calls, send the results, until a reply asks for no tool or `maxTurns` requests were made. A
 * reply cut at the model's output limit ends the run (`max_tokens`): its calls may be cut too,
 * so none of them runs, and each gets an error result saying so.
 *
 * `history` is the caller's and is appended to as the run goes, so it is always a valid
 * conversation, also when the run ends early: every tool call gets a result (a cancelled one
 * on abort), a model error (thrown as ModelError; it ends the turn) leaves the history as
 * it was before the failed request, and a tool's ToolFatalError (thrown on once every call of the
 * reply has a result) ends the turn too. With `compaction`, the history is also rewritten in place
 * before a request when its estimated tokens exceed 0.9 × max_tokens: the caller's array then
 * holds the compacted conversation.
 */
export async function runAgentLoop(history: Message[], plain: LoopOptions): Promise<LoopResult> {
  const report = plain.onEvent
  if (!report) return loop(history, plain)
  // Every event the loop reports goes through the run's items, which are reported the same way.
  const items = new TurnItemEmitter(report, plain.executor.describe?.bind(plain.executor))
  const onEvent = (event: AgentEvent) => items.report(event)

  const compaction = plain.compaction && {
    ...plain.compaction,
    onStart(start: CompactionStart) {
      plain.compaction?.onStart?.(start)
      items.compacting(start)
    },
    onCompacted(result: CompactionResult) {
      plain.compaction?.onCompacted?.(result)
      items.compacted(result)
    },
  }
  try {
    return await loop(history, {...plain, onEvent, ...(compaction ? {compaction} : {})})
  } catch (error) {
    items.failed(error)
    throw error
  } finally {
    items.finish()
  }
}

async function loop(history: Message[], options: LoopOptions): Promise<LoopResult> {
  const usage: Usage = {inputTokens: 0, outputTokens: 0}
  const rawResponses: unknown[] = []
  const emit = options.onEvent ?? (() => {})
  const ledger = new TokenLedger()
  let finalOutput = ''
  for (let turn = 1; turn <= options.maxTurns; turn++) {
    if (options.overBudget?.()) return {finalOutput, rawResponses, stop: 'budget', turns: turn - 1, usage}
    emit({turn, type: 'turn_start'})
    if (options.compaction) await compactIfOverBudget(history, options.compaction, ledger, usage, options)
    const reply = await streamReply(history, options, usage)
    rawResponses.push(reply.raw)
    finalOutput = stripThinkBlock(reply.text)
    if (reply.cancelled && reply.calls.length === 0) {
      if (finalOutput) history.push({content: finalOutput, role: 'assistant', toolCalls: []})
      return {finalOutput, rawResponses, stop: 'cancelled', turns: turn, usage}
    }

    history.push({
      content: finalOutput,
      role: 'assistant',
      toolCalls: reply.calls,
      ...(reply.reasoning && {reasoning: reply.reasoning}),
    })
    const cut = reply.stopReason === 'max_tokens'
    if (reply.calls.length === 0)
      return {finalOutput, rawResponses, stop: cut ? 'max_tokens' : 'completed', turns: turn, usage}
    const ended: TurnEnd = {}
    const results = cut
      ? reply.calls.map((call) => notRun(call, options))
      : await runToolCalls(reply.calls, {...options, ended})
    for (const [index, call] of reply.calls.entries()) {
      const result = results[index]
      history.push({
        content: resultText(result),
        isError: result.is_error,
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        ...(result.images && {images: result.images}),
      })
    }

    // Every call has its result in the history: the conversation stays valid after the throw.
    if (ended.fatal) throw ended.fatal

    if (options.signal?.aborted) return {finalOutput, rawResponses, stop: 'cancelled', turns: turn, usage}
    if (cut) return {finalOutput, rawResponses, stop: 'max_tokens', turns: turn, usage}
  }

  return {finalOutput, rawResponses, stop: 'max_turns', turns: options.maxTurns, usage}
}

/** The history's tokens are kept per message and summed as it grows, so a turn costs O(its messages). */
async function compactIfOverBudget(
  history: Message[],
  compaction: LoopCompaction,
  ledger: TokenLedger,
  usage: Usage,
  options: LoopOptions,
): Promise<void> {
  const {compactor} = compaction
  const tokensBefore = ledger.sync(history)
  // After Ctrl-C the next request ends at once: there is nothing to make room for.
  if (options.signal?.aborted || !compactor.shouldCompact(tokensBefore) || !compactor.canCompact(history)) return
  compaction.onStart?.({budget: compactor.maxTokens, tokensBefore})
  await compaction.onPreCompact?.()
  const result = await compactor.compact(history, {signal: options.signal})
  if (result.usage) {
    usage.inputTokens += result.usage.inputTokens
    usage.outputTokens += result.usage.outputTokens
    options.onEvent?.({type: 'usage', usage: result.usage})
  }

  history.splice(0, history.length, ...result.messages)
  ledger.reset()
  compaction.onCompacted?.(result)
}

interface Reply {
  text: string
  calls: ToolCallRequest[]
  raw: unknown
  cancelled: boolean
  stopReason?: StopReason
  /** Anthropic's signed thinking: it must go back with the tool calls it led to. */
  reasoning?: ReasoningBlock[]
}

async function streamReply(history: readonly Message[], options: LoopOptions, usage: Usage): Promise<Reply> {
  const reply: Reply = {calls: [], cancelled: false, raw: undefined, text: ''}
  const filter = new ThinkBlockFilter()
  const show = (text: string) => text && options.onEvent?.({text, type: 'text_delta'})
  const stream = options.client.sendMessage(
    history,
    typeof options.tools === 'function' ? options.tools() : options.tools,
    {maxTokens: options.maxTokens, model: options.model, signal: options.signal},
  )
  for await (const event of stream) {
    switch (event.type) {
      case 'content_delta': {
        reply.text += event.text
        show(filter.push(event.text))
        break
      }

      case 'tool_use': {
        reply.calls.push(event.call)
        options.onEvent?.({call: event.call, type: 'tool_call'})
        break
      }

      case 'usage': {
        usage.inputTokens += event.usage.inputTokens
        usage.outputTokens += event.usage.outputTokens
        options.onEvent?.({type: 'usage', usage: event.usage})
        break
      }

      case 'message_stop': {
        reply.raw = event.raw ?? reply.text
        reply.reasoning = event.reasoning
        reply.stopReason = event.stopReason
        break
      }

      case 'error': {
        throw event.error
      }
    }
  }

  show(filter.end())
  reply.raw ??= reply.text
  // A stream cut by Ctrl-C may hold half a tool call: none of them ran, so none is kept.
  if (options.signal?.aborted) {
    reply.cancelled = true
    reply.calls = []
  }

  return reply
}

/**
 * Read-only (and concurrent) calls next to each other run side by side; a mutating call runs
 * alone, after the ones before it. Results come back in call order.
 */
async function runToolCalls(
  calls: readonly ToolCallRequest[],
  options: LoopOptions & {ended: TurnEnd},
): Promise<ToolResult[]> {
  const results: ToolResult[] = []
  let batch: ToolCallRequest[] = []
  const flush = async () => {
    results.push(...(await Promise.all(batch.map((call) => runToolCall(call, options)))))
    batch = []
  }

  for (const call of calls) {
    if (options.executor.runsAlone?.(call.name) ?? true) {
      await flush()
      results.push(await runToolCall(call, options))
    } else {
      batch.push(call)
    }
  }

  await flush()
  return results
}

/** A tool's {@link ToolFatalError} in this turn: the calls after it do not run, and the run ends with it. */
interface TurnEnd {
  fatal?: ToolFatalError
}

async function runToolCall(call: ToolCallRequest, options: LoopOptions & {ended: TurnEnd}): Promise<ToolResult> {
  const {ended} = options
  let result: ToolResult
  if (options.signal?.aborted) result = toolError(CANCELLED)
  else if (ended.fatal) result = toolError(`not run: the turn ended when another call failed (${ended.fatal.message})`)
  else {
    try {
      result =
        argumentsProblem(call) ??
        (await options.executor.execute(call.name, call.input, options.sessionId, options.signal))
    } catch (error) {
      if (!(error instanceof ToolFatalError)) throw error
      ended.fatal ??= error
      result = toolError(`the turn ended: ${error.message}`)
    }
  }

  if (result.images && !(options.images ?? modelTakesImages(options.model)))
    result = toolError(imagesRefused(options.model, call.name))
  options.onEvent?.({call, result, type: 'tool_result'})
  return result
}

/** The result of a call in a reply cut at the output limit: its arguments may be cut too. */
function notRun(call: ToolCallRequest, options: LoopOptions): ToolResult {
  const result = toolError(
    `not run: the reply was cut at the model's output limit (max_tokens), so this call may be incomplete`,
  )
  options.onEvent?.({call, result, type: 'tool_result'})
  return result
}

/**
 * Arguments that are not one JSON object go back to the model instead of running the tool, and
 * so do arguments nested deeper than any tool's input (what handles them afterwards recurses).
 */
function argumentsProblem(call: ToolCallRequest): ToolResult | undefined {
  if (call.arguments.trim() === '') return undefined
  try {
    const parsed = parseJsonText(call.arguments)
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return undefined
    return toolError(
      `The arguments of ${call.name} must be one JSON object, not ${Array.isArray(parsed) ? 'an array' : typeof parsed}.`,
    )
  } catch (error) {
    if (error instanceof JsonNestingError)
      return toolError(
        `The arguments of ${call.name} have ${error.message}, more than any tool takes. Send them again as one JSON object.`,
      )
    const {column, line, message} = error as JsonSyntaxError
    return toolError(
      `The arguments of ${call.name} were not valid JSON (${message}, at line ${line}, column ${column}). Send them again as one JSON object.`,
    )
  }
}

/** What the model reads back: the output, and the error when there is one. */
function resultText(result: ToolResult): string {
  if (!result.is_error) return result.output
  const error = result.error ?? 'the tool failed'
  return result.output ? `Error: ${error}\n\n${result.output}` : `Error: ${error}`
}
