import type {AgentEvent} from '../agent/loop.js'
import type {ApiClient, Message, ModelToolSpec, SendOptions, StreamEvent} from '../agent/types.js'
import {type CompactionLine, type RunStop, toLine, type TranscriptLine, type UsageLine} from './transcript.js'
import {totalUsage} from './usage.js'

export interface RecorderOptions {
  /** Appends one line to the transcript; never throws (a transcript that cannot be written is a warning). */
  write(line: TranscriptLine): void
  /** The agent's system prompt: every conversation request starts with it; the transcript leaves it out. */
  instructions: string
  /** The conversation the transcript holds already (a resumed session), the same objects the run gets. */
  history: readonly Message[]
  now(): Date
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
    return {sendMessage: (messages, tools, options) => this.send(client, messages, tools, options)}
  }

  onEvent(event: AgentEvent): void {
    if (event.type === 'turn_start') this.turn = event.turn
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
    const usage = totalUsage(this.requests, undefined)
    this.options.write({
      at: this.at(),
      stop,
      turns: this.turn,
      type: 'end',
      usage,
      ...(error === undefined ? {} : {error}),
    })
  }

  private async *send(
    client: ApiClient,
    messages: readonly Message[],
    tools: readonly ModelToolSpec[],
    options: SendOptions,
  ): AsyncGenerator<StreamEvent> {
    this.record(messages)
    let input = 0
    let output = 0
    try {
      for await (const event of client.sendMessage(messages, tools, options)) {
        if (event.type === 'usage') {
          input += event.usage.inputTokens
          output += event.usage.outputTokens
        }

        yield event
      }
    } finally {
      // Also for a failed or abandoned request: it was made, and may have cost tokens.
      const line: UsageLine = {
        at: this.at(),
        input_tokens: input,
        model: options.model,
        output_tokens: output,
        turn: this.turn,
        type: 'usage',
      }
      this.requests.push(line)
      this.options.write(line)
    }
  }

  /**
   * Saves what `messages` adds to the recorded conversation, or the whole conversation when
   * it no longer starts with what was recorded. A request that does not start with the agent's
   * system prompt is not the conversation (a summary request of a compaction, say): only its
   * usage is kept.
   */
  private record(messages: readonly Message[]): void {
    const {instructions} = this.options
    const [first] = messages
    if (instructions && !(first?.role === 'system' && first.content === instructions)) return
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
  }

  private at(): string {
    return this.options.now().toISOString()
  }
}

/** The loop keeps message objects as they are; a copy with the same content is the same message. */
function same(a: Message, b: Message): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b)
}
