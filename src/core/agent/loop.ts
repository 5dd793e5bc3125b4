import {type ToolResult, toolError} from '@hanzo-dev/sdk'

import {CANCELLED} from '../tools/pipeline.js'
import {stripThinkBlock, ThinkBlockFilter} from './think.js'
import type {ApiClient, Message, ModelToolSpec, ToolCallRequest, ToolExecutor, Usage} from './types.js'

/** What the loop reports as it goes: the CLI's output formats are built from these. */
export type AgentEvent =
  | {type: 'turn_start'; turn: number}
  | {type: 'text_delta'; text: string}
  | {type: 'tool_call'; call: ToolCallRequest}
  | {type: 'tool_result'; call: ToolCallRequest; result: ToolResult}
  | {type: 'usage'; usage: Usage}

export interface LoopOptions {
  client: ApiClient
  /** Runs the calls; `isMutating` (the ToolPipeline has it) lets read-only calls run side by side. */
  executor: ToolExecutor & {isMutating?(name: string): boolean}
  tools: readonly ModelToolSpec[]
  model: string
  sessionId: string
  /** The most model requests one run makes. */
  maxTurns: number
  maxTokens?: number
  signal?: AbortSignal
  onEvent?: (event: AgentEvent) => void
}

export type LoopStop = 'completed' | 'max_turns' | 'cancelled'

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
 * calls, send the results, until a reply asks for no tool or `maxTurns` requests were made.
 *
 * `history` is the caller's and is appended to as the run goes, so it is always a valid
 * conversation, also when the run ends early: every tool call gets a result (a cancelled one
 * on abort), and a model error (thrown as ModelError; it ends the turn) leaves the history as
 * it was before the failed request.
 */
export async function runAgentLoop(history: Message[], options: LoopOptions): Promise<LoopResult> {
  const usage: Usage = {inputTokens: 0, outputTokens: 0}
  const rawResponses: unknown[] = []
  const emit = options.onEvent ?? (() => {})
  let finalOutput = ''
  for (let turn = 1; turn <= options.maxTurns; turn++) {
    emit({turn, type: 'turn_start'})
    const reply = await streamReply(history, options, usage)
    rawResponses.push(reply.raw)
    finalOutput = stripThinkBlock(reply.text)
    if (reply.cancelled && reply.calls.length === 0) {
      if (finalOutput) history.push({content: finalOutput, role: 'assistant', toolCalls: []})
      return {finalOutput, rawResponses, stop: 'cancelled', turns: turn, usage}
    }

    history.push({content: finalOutput, role: 'assistant', toolCalls: reply.calls})
    if (reply.calls.length === 0) return {finalOutput, rawResponses, stop: 'completed', turns: turn, usage}
    const results = await runToolCalls(reply.calls, options)
    for (const [index, call] of reply.calls.entries()) {
      const result = results[index]
      history.push({content: resultText(result), isError: result.is_error, role: 'tool', toolCallId: call.id, toolName: call.name})
    }

    if (options.signal?.aborted) return {finalOutput, rawResponses, stop: 'cancelled', turns: turn, usage}
  }

  return {finalOutput, rawResponses, stop: 'max_turns', turns: options.maxTurns, usage}
}

interface Reply {
  text: string
  calls: ToolCallRequest[]
  raw: unknown
  cancelled: boolean
}

async function streamReply(history: readonly Message[], options: LoopOptions, usage: Usage): Promise<Reply> {
  const reply: Reply = {calls: [], cancelled: false, raw: undefined, text: ''}
  const filter = new ThinkBlockFilter()
  const show = (text: string) => text && options.onEvent?.({text, type: 'text_delta'})
  const stream = options.client.sendMessage(history, options.tools, {maxTokens: options.maxTokens, model: options.model, signal: options.signal})
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
 * Read-only calls next to each other run side by side; a mutating call runs alone, after the
 * ones before it. Results come back in call order.
 */
async function runToolCalls(calls: readonly ToolCallRequest[], options: LoopOptions): Promise<ToolResult[]> {
  const results: ToolResult[] = []
  let batch: ToolCallRequest[] = []
  const flush = async () => {
    results.push(...(await Promise.all(batch.map((call) => runToolCall(call, options)))))
    batch = []
  }

  for (const call of calls) {
    const mutating = options.executor.isMutating?.(call.name) ?? true
    if (mutating) {
      await flush()
      results.push(await runToolCall(call, options))
    } else {
      batch.push(call)
    }
  }

  await flush()
  return results
}

async function runToolCall(call: ToolCallRequest, options: LoopOptions): Promise<ToolResult> {
  const result = options.signal?.aborted
    ? toolError(CANCELLED)
    : argumentsProblem(call) ?? (await options.executor.execute(call.name, call.input, options.sessionId, options.signal))
  options.onEvent?.({call, result, type: 'tool_result'})
  return result
}

/** Arguments that are not one JSON object go back to the model instead of running the tool. */
function argumentsProblem(call: ToolCallRequest): ToolResult | undefined {
  if (call.arguments.trim() === '') return undefined
  try {
    const parsed: unknown = JSON.parse(call.arguments)
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return undefined
    return toolError(`The arguments of ${call.name} must be one JSON object, not ${Array.isArray(parsed) ? 'an array' : typeof parsed}.`)
  } catch (error) {
    return toolError(`The arguments of ${call.name} were not valid JSON (${(error as Error).message}). Send them again as one JSON object.`)
  }
}

/** What the model reads back: the output, and the error when there is one. */
function resultText(result: ToolResult): string {
  if (!result.is_error) return result.output
  const error = result.error ?? 'the tool failed'
  return result.output ? `Error: ${error}\n\n${result.output}` : `Error: ${error}`
}
