import {PrintableStream} from '@hanzo-dev/sdk/terminal-text'
import type {ChalkInstance} from 'chalk'

import type {TodoItem} from '@hanzo-dev/sdk'

import type {SubagentProgress} from '../adapters/tools/subagents.js'
import {summarizeImages} from '../core/agent/image-summary.js'
import type {AgentEvent} from '../core/agent/loop.js'
import type {RunResult} from '../core/agent/runner.js'
import type {Usage} from '../core/agent/types.js'
import {formatUsd, usageSummary} from '../core/sessions/render.js'
import {type Prices, requestCost, type TurnUsage, type UsageTotals} from '../core/sessions/usage.js'
import type {ReplyPrinter} from './reply-printer.js'
import type {LiveOutput} from './run-live.js'
import {planSoFar} from './todo-lines.js'
import {subagentLine} from './subagent-line.js'
import {callLine, compactionLine, isCallItem, plural, toolResultLines} from './tool-result-lines.js'

export type OutputFormat = 'text' | 'json' | 'stream-json'

export interface RunSummary {
  sessionId: string
  model: string
  /** With `prices`, a usage event gets a cost when the model has a price. */
  provider?: string
  prices?: Prices
}

/** Tokens (and cost) of the run's model requests, and of the whole session (earlier runs too). */
export interface RunUsage {
  turns: TurnUsage[]
  run: UsageTotals
  session: UsageTotals
}

interface Streams {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  /** Colour for stderr's progress lines (off when not a TTY or NO_COLOR). */
  style: ChalkInstance
  /**
   * Text output on a terminal: the spinner (with the seconds waited) while the model has not
   * answered yet, and the answer's line still being written; everything is written above it.
   */
  live?: LiveOutput
  /** The terminal's width, for what is fitted to it (an edit's diff with `verbose`). */
  columns?: number
  /**
   * Text output on a terminal: the answer defused and rendered as markdown (painted with
   * stdout's own style, wrapped to its width). Absent, the answer's text goes out as the model
   * sent it, byte for byte, to a pipe or a file, and defused (not rendered) to a terminal
   * (the agent commands' stdout).
   */
  markdown?: ReplyPrinter
}

/**
 * How `hanzo-dev run` reports (docs/run-output.md):
 * - text: the answer streams to stdout as it arrives; tool activity (each call, and a short
 *   summary of its result, longer with `verbose`) goes to stderr, so `hanzo-dev run ... >
 *   answer.txt` captures only the answer. On a terminal, the spinner runs while the model has
 *   not started its reply, and the line the reply is still writing shows under what is written;
 * - json: one JSON object on stdout when the run ends;
 * - stream-json: one JSON event per line on stdout as the run goes, ending with the result.
 */
export class RunOutput {
  private wroteText = false
  private turn = 0
  /** The answer's text on a terminal without markdown: shown, never obeyed. */
  private readonly defused?: PrintableStream

  constructor(
    private readonly format: OutputFormat,
    private readonly streams: Streams,
    private readonly summary: RunSummary,
    private readonly options: {verbose?: boolean} = {},
  ) {
    if (!streams.markdown && (streams.stdout as {isTTY?: boolean}).isTTY) this.defused = new PrintableStream()
  }

  /** `plan`: what a continued session's last todo_write left, told before the run goes on from it. */
  start(tools: readonly string[], cwd: string, plan: readonly TodoItem[] = []): void {
    this.line({
      cwd,
      model: this.summary.model,
      session_id: this.summary.sessionId,
      subtype: 'init',
      tools,
      type: 'system',
    })
    if (plan.length === 0) return
    if (this.format === 'stream-json') this.line({todos: plan, type: 'todo_list'})
    if (this.format === 'text') this.streams.stderr.write(`${planSoFar(plan, this.streams.style)}\n`)
  }

  event(event: AgentEvent): void {
    if (event.type === 'turn_start') {
      this.turn = event.turn
      this.streams.live?.start()
    } else if (event.type === 'text_delta' || event.type === 'tool_call' || event.type === 'tool_result') {
      // Not on usage, which may come before the reply (a compaction's summary request): the wait goes on.
      this.streams.live?.stop()
    }

    if (this.format === 'stream-json') {
      // The stream keeps its documented events; the items are for the printers, but for the plan, which no other event carries.
      if (event.type === 'item_completed' && event.item.type === 'todo_list')
        this.line({todos: event.item.todos, type: 'todo_list'})
      else if ((event.type === 'item_started' || event.type === 'item_completed') && event.item.type === 'compaction')
        this.line(event.item)
      else if (event.type !== 'item_started' && event.type !== 'item_completed')
        this.line(event.type === 'usage' ? this.usageEvent(event.usage) : streamEvent(event))
      return
    }

    if (this.format !== 'text') return
    const {stderr, stdout, style} = this.streams
    if (event.type === 'text_delta') {
      const {live, markdown} = this.streams
      if (markdown && live) live.answer(markdown.push(event.text), this.stillWriting(markdown))
      else if (markdown) stdout.write(markdown.push(event.text))
      else this.write(stdout, this.defused ? this.defused.push(event.text) : event.text)
      this.wroteText = true
    } else if (event.type === 'item_started' && isCallItem(event.item)) {
      this.endTextLine()
      this.write(stderr, `${callLine(event.item, style)}\n`)
    } else if (event.type === 'item_completed' && isCallItem(event.item) && event.item.result) {
      const {columns} = this.streams
      const lines = toolResultLines(event.item.result, {columns, style, verbose: this.options.verbose ?? false})
      this.write(stderr, `${lines.join('\n')}\n`)
    } else if ((event.type === 'item_started' || event.type === 'item_completed') && event.item.type === 'compaction') {
      this.endTextLine()
      this.streams.live?.stop()
      this.write(stderr, `${compactionLine(event.item, style)}\n`)
      this.streams.live?.start()
    }
  }

  finish(result: RunResult, usage: RunUsage): void {
    const summary = {
      is_error: result.stop !== 'completed',
      num_turns: result.turns,
      result: result.finalOutput,
      session_id: this.summary.sessionId,
      session_usage: usage.session,
      stop: result.stop,
      type: 'result',
      usage: {...usage.run, by_turn: usage.turns},
    }
    if (this.format === 'text') this.endTextLine()
    this.close()
    // On stderr in every format: stdout stays the answer or the JSON.
    if (result.stop === 'cancelled') this.streams.stderr.write('Cancelled\n')
    // For a person at a terminal: what the run cost; a script reads it from --output-format json.
    if (this.format === 'text' && this.streams.live && usage.run.input_tokens > 0)
      this.streams.stderr.write(`${this.endLine(result, usage)}\n`)
    if (this.format === 'json') this.streams.stdout.write(`${JSON.stringify(summary, null, 2)}\n`)
    else this.line(summary)
  }

  /** An error that ended the run: in the stream for stream-json, as a result object for json. */
  fail(message: string): void {
    if (this.format === 'text') this.endTextLine()
    this.close()
    if (this.format === 'text') return
    const error = {is_error: true, message, session_id: this.summary.sessionId, type: 'error'}
    if (this.format === 'json') this.streams.stdout.write(`${JSON.stringify(error, null, 2)}\n`)
    else this.line(error)
  }

  /** The live display ends (the run is over): the screen is left as written, writes go straight again. */
  close(): void {
    this.streams.live?.close()
  }

  /** `── 3 model requests · 12,345 in (10,000 cached) · 456 out · $0.012`, and the session's cost when it had earlier runs. */
  private endLine(result: RunResult, usage: RunUsage): string {
    const session =
      usage.session.input_tokens > usage.run.input_tokens && usage.session.cost_usd !== undefined
        ? ` · session ${formatUsd(usage.session.cost_usd)}`
        : ''
    const line = `── ${plural(result.turns, 'model request')} · ${usageSummary(usage.run)}${session}`
    return this.streams.style.dim(line)
  }

  /** Cached input is priced at the cache's prices, as the session's usage is. */
  private usageEvent({cacheReadTokens, cacheWriteTokens, inputTokens, outputTokens}: Usage): object {
    const {model, prices, provider} = this.summary
    const cached = {
      ...(cacheReadTokens ? {cache_read_tokens: cacheReadTokens} : {}),
      ...(cacheWriteTokens ? {cache_write_tokens: cacheWriteTokens} : {}),
    }
    const tokens = {input_tokens: inputTokens, output_tokens: outputTokens, ...cached}
    const cost = prices && requestCost({...tokens, model, provider}, prices)
    return {...tokens, turn: this.turn, type: 'usage', ...(cost === undefined ? {} : {cost_usd: cost})}
  }

  private endTextLine(): void {
    const {live, markdown, stdout} = this.streams
    // The renderer ends every line it writes, the held last one included.
    if (markdown && live && this.wroteText) live.answer(markdown.flush(), [])
    else if (markdown && this.wroteText) stdout.write(markdown.flush())
    else if (this.wroteText) this.write(stdout, '\n')
    this.defused?.end()
    this.wroteText = false
  }

  /** What the reply is still writing: the note of a block held back until complete, and the unfinished line. */
  private stillWriting(markdown: ReplyPrinter): string[] {
    const {held} = markdown
    return [...(held ? [this.streams.style.dim(held)] : []), markdown.partial]
  }

  /** `text` on `stream`, above what is live on a terminal. */
  /** Text output: a `task` child's line when it ends (its call's line said it started), children in parallel each their own. */
  subagent(progress: SubagentProgress): void {
    if (this.format !== 'text' || progress.status === 'running') return
    this.endTextLine()
    this.write(this.streams.stderr, `${subagentLine(progress, this.streams.style)}\n`)
  }

  private write(stream: NodeJS.WritableStream, text: string): void {
    if (this.streams.live) this.streams.live.write(stream, text)
    else stream.write(text)
  }

  private line(value: object): void {
    if (this.format === 'stream-json') this.streams.stdout.write(`${JSON.stringify(value)}\n`)
  }
}

function streamEvent(event: AgentEvent): object {
  switch (event.type) {
    case 'tool_call': {
      return {id: event.call.id, input: event.call.input, name: event.call.name, type: 'tool_call'}
    }

    case 'tool_result': {
      const {error, images, is_error: isError, output} = event.result
      // The images' bytes stay out of the stream (megabytes a line): what they are is enough.
      const seen = summarizeImages(images).images?.map((image) => ({
        bytes: image.bytes,
        media_type: image.mediaType,
        name: image.name,
      }))
      const {id, name} = event.call
      return {error, id, ...(seen && {images: seen}), is_error: isError, name, output, type: 'tool_result'}
    }

    default: {
      return event
    }
  }
}
