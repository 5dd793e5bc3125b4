import type {AgentEvent} from '../agent/loop.js'
import {stripThinkBlock} from '../agent/think.js'
import type {ApiClient, Message, ReasoningBlock, ToolCallRequest} from '../agent/types.js'
import {type CompactionLine, type RunStop, toLine, type TranscriptLine, type UsageLine} from './transcript.js'
import {priceBook, totalUsage} from './usage.js'

export interface RecorderOptions {
  /** Appends one line to the transcript; never throws (a transcript that cannot be written is a warning). */
  write(line: TranscriptLine): void
  /** Each model request of the run as it ends: the session's usage (and its transcript, even when the run is not recorded). */
  count(line: UsageLine): void
  /** The agent's system prompt: every conversation request starts with it; the transcript leaves it out. */
  instructions: string
  /** The conversation the transcript holds already (a resumed session), the same objects the run gets. */
  history: readonly Message[]
  /** Where the run's requests go: with the model, what prices them. */
  provider: string
  /** What the run's requests are, when not a run's turns (a subagent's, a command's side request). */
  kind?: 'subagent' | 'command' | 'sampling'
  now(): Date
}

/** The tokens of one request, as `meteredClient` counted them. */
export type CountedRequest = Pick<
  UsageLine,
  'model' | 'input_tokens' | 'output_tokens' | 'cache_read_tokens' | 'cache_write_tokens'
>

/**
 * `client`, with each request's tokens handed to `counted` when the request ends, also when it
 * failed or was abandoned: it was made, and may have cost tokens.
 */
export function meteredClient(client: ApiClient, counted: (request: CountedRequest) => void): ApiClient {
  return {
    async *sendMessage(messages, tools, options) {
      const counts = {cache_read_tokens: 0, cache_write_tokens: 0, input_tokens: 0, output_tokens: 0}
      try {
        for await (const event of client.sendMessage(messages, tools, options)) {
          if (event.type === 'usage') {
            counts.input_tokens += event.usage.inputTokens
            counts.output_tokens += event.usage.outputTokens
            counts.cache_read_tokens += event.usage.cacheReadTokens ?? 0
            counts.cache_write_tokens += event.usage.cacheWriteTokens ?? 0
          }

          yield event
        }
      } finally {
        const {cache_read_tokens: read, cache_write_tokens: write, ...tokens} = counts
        counted({
          ...tokens,
          model: options.model,
          ...(read > 0 ? {cache_read_tokens: read} : {}),
          ...(write > 0 ? {cache_write_tokens: write} : {}),
        })
      }
    },
  }
}

/**
 * Writes a run into its session's transcript as it goes. Messages are taken from the requests
 * themselves (the client is wrapped), so the transcript holds exactly what the model saw,
 * whatever the loop did to the history in between (a compaction that replaced messages shows
 * as a changed prefix and is saved as a `history` line); the last reply, which no request
 * carries, comes from the run's result. A kill mid-run thus leaves the conversation as of the
 * last request: one the model was sent, so one a resumed run can send again.
 */
export class SessionRecorder {
  /** One entry per model request of this run. */
  readonly requests: UsageLine[] = []
  private recorded: readonly Message[]
  private turn = 0

  constructor(private readonly options: RecorderOptions) {
    this.recorded = [...options.history]
  }

  /** The conversation as the transcript now holds it. */
  get conversation(): readonly Message[] {
    return this.recorded
  }

  wrap(client: ApiClient): ApiClient {
    return {
      sendMessage: (messages, tools, options) => {
        // A request that is not the conversation is a compaction's summary: counted as one.
        let summary = false
        const recorded: ApiClient = {
          sendMessage: (sent, sentTools, sentOptions) => {
            const stream = client.sendMessage(sent, sentTools, sentOptions)
            if (this.record(sent)) return this.savingReply(stream, sentOptions.signal)
            summary = true
            return stream
          },
        }
        return meteredClient(recorded, (request) => {
          const kind = summary ? 'compaction' : this.options.kind
          const line: UsageLine = {
            at: this.at(),
            ...request,
            provider: this.options.provider,
            turn: this.turn,
            type: 'usage',
            ...(kind === undefined ? {} : {kind}),
          }
          this.requests.push(line)
          this.options.count(line)
        }).sendMessage(messages, tools, options)
      },
    }
  }

  onEvent(event: AgentEvent): void {
    if (event.type === 'turn_start') this.turn = event.turn
    if (event.type === 'item_completed' && event.item.type === 'todo_list')
      this.options.write({at: this.at(), todos: event.item.todos, type: 'todos'})
  }

  /** The loop compacted the history (`LoopCompaction.onCompacted`): what it did, not the messages. */
  compacted(result: Omit<CompactionLine, 'at' | 'type'>): void {
    const {compacted_count: count, fallback_reason: reason, strategy, tokens_saved: saved} = result
    this.options.write({
      at: this.at(),
      compacted_count: count,
      strategy,
      tokens_saved: saved,
      type: 'compaction',
      ...(reason === undefined ? {} : {fallback_reason: reason}),
    })
  }

  /** The conversation as the run left it (`RunResult.history`). */
  finish(history: readonly Message[]): void {
    this.record(history)
  }

  /** The run ended; `turns` are the ones it began. */
  end(stop: RunStop, error?: string): void {
    const usage = totalUsage(this.requests, priceBook(undefined))
    this.options.write({
      at: this.at(),
      stop,
      turns: this.turn,
      type: 'end',
      usage,
      ...(error === undefined ? {} : {error}),
    })
  }

  /**
   * Passes the reply on and saves it as soon as it ends, before its calls run: a kill during a
   * call then leaves the call in the transcript (a resumed run answers it as interrupted), not a
   * conversation that forgot it. A reply a model error cut keeps its text, without its calls,
   * which may be cut too; one the user stopped is the loop's to keep (it drops its calls).
   */
  private async *savingReply(stream: ReturnType<ApiClient['sendMessage']>, signal?: AbortSignal) {
    const reply: {text: string; calls: ToolCallRequest[]; reasoning?: ReasoningBlock[]} = {calls: [], text: ''}
    // Stays false when the stream fails: its error event ends the loop's reading of it.
    let whole = false
    try {
      for await (const event of stream) {
        if (event.type === 'content_delta') reply.text += event.text
        if (event.type === 'tool_use') reply.calls.push(event.call)
        if (event.type === 'message_stop') reply.reasoning = event.reasoning
        yield event
      }

      whole = true
    } finally {
      if (!signal?.aborted) this.saveReply(reply, whole)
    }
  }

  private saveReply(reply: {text: string; calls: ToolCallRequest[]; reasoning?: ReasoningBlock[]}, whole: boolean) {
    const content = stripThinkBlock(reply.text)
    // A whole reply without calls ends the run, which saves it (finish).
    if (whole ? reply.calls.length === 0 : content === '') return
    const message: Message = {
      content,
      role: 'assistant',
      toolCalls: whole ? reply.calls : [],
      ...(whole && reply.reasoning && {reasoning: reply.reasoning}),
    }
    this.options.write(toLine(message, this.at()))
    this.recorded = [...this.recorded, message]
  }

  /**
   * Saves what `messages` adds to the recorded conversation, or the whole conversation when
   * it no longer starts with what was recorded. A request that does not start with the agent's
   * system prompt is not the conversation (a summary request of a compaction, say): only its
   * usage is kept.
   */
  private record(messages: readonly Message[]): boolean {
    const {instructions} = this.options
    const [first] = messages
    if (instructions && !(first?.role === 'system' && first.content === instructions)) return false
    const conversation = instructions ? messages.slice(1) : [...messages]
    const at = this.at()
    const grows =
      this.recorded.length <= conversation.length &&
      this.recorded.every((message, index) => same(message, conversation[index]))
    if (grows) {
      for (const message of conversation.slice(this.recorded.length)) this.options.write(toLine(message, at))
    } else {
      this.options.write({at, messages: conversation.map((message) => toLine(message)), type: 'history'})
    }

    this.recorded = conversation
    return true
  }

  private at(): string {
    return this.options.now().toISOString()
  }
}

/** The loop keeps message objects as they are; a copy with the same content (in any key order) is the same message. */
function same(a: Message, b: Message): boolean {
  return a === b || JSON.stringify(toLine(a)) === JSON.stringify(toLine(b))
}
