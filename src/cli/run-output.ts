import {PrintableStream} from '@hanzo-dev/sdk/terminal-text'
import type {ChalkInstance} from 'chalk'

import type {AgentEvent} from '../core/agent/loop.js'
import type {RunResult} from '../core/agent/runner.js'
import type {Usage} from '../core/agent/types.js'
import {type Prices, requestCost, type TurnUsage, type UsageTotals} from '../core/sessions/usage.js'
import type {ReplyPrinter} from './reply-printer.js'
import type {Spinner} from './spinner.js'
import {callLine, compactionLine, isCallItem, toolResultLines} from './tool-result-lines.js'

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
  /** Shown on stderr while the model has not answered yet (text output on a terminal only). */
  spinner?: Spinner
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
 *   answer.txt` captures only the answer. The spinner runs only while the model has not started
 *   its reply, so it never draws over streamed text;
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

  start(tools: readonly string[], cwd: string): void {
    this.line({
      cwd,
      model: this.summary.model,
      session_id: this.summary.sessionId,
      subtype: 'init',
      tools,
      type: 'system',
    })
  }

  event(event: AgentEvent): void {
    if (event.type === 'turn_start') {
      this.turn = event.turn
      this.streams.spinner?.start()
    } else if (event.type === 'text_delta' || event.type === 'tool_call' || event.type === 'tool_result') {
      // Not on usage, which may come before the reply (a compaction's summary request): the wait goes on.
      this.streams.spinner?.stop()
    }

    if (this.format === 'stream-json') {
      // The stream keeps its documented events; the items are for the printers.
      if (event.type !== 'item_started' && event.type !== 'item_completed')
        this.line(event.type === 'usage' ? this.usageEvent(event.usage) : streamEvent(event))
      return
    }

    if (this.format !== 'text') return
    const {stderr, stdout, style} = this.streams
    if (event.type === 'text_delta') {
      const {markdown} = this.streams
      if (markdown) stdout.write(markdown.push(event.text))
      else stdout.write(this.defused ? this.defused.push(event.text) : event.text)
      this.wroteText = true
    } else if (event.type === 'item_started' && isCallItem(event.item)) {
      this.endTextLine()
      stderr.write(`${callLine(event.item, style)}\n`)
    } else if (event.type === 'item_completed' && isCallItem(event.item) && event.item.result) {
      const lines = toolResultLines(event.item.result, {style, verbose: this.options.verbose ?? false})
      stderr.write(`${lines.join('\n')}\n`)
    } else if (event.type === 'item_completed' && event.item.type === 'compaction') {
      this.endTextLine()
      this.streams.spinner?.stop()
      stderr.write(`${compactionLine(event.item, style)}\n`)
      this.streams.spinner?.start()
    }
  }

  finish(result: RunResult, usage: RunUsage): void {
    this.streams.spinner?.stop()
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
    // On stderr in every format: stdout stays the answer or the JSON.
    if (result.stop === 'cancelled') this.streams.stderr.write('Cancelled\n')
    if (this.format === 'json') this.streams.stdout.write(`${JSON.stringify(summary, null, 2)}\n`)
    else this.line(summary)
  }

  /** An error that ended the run: in the stream for stream-json, as a result object for json. */
  fail(message: string): void {
    this.streams.spinner?.stop()
    if (this.format === 'text') {
      this.endTextLine()
      return
    }

    const error = {is_error: true, message, session_id: this.summary.sessionId, type: 'error'}
    if (this.format === 'json') this.streams.stdout.write(`${JSON.stringify(error, null, 2)}\n`)
    else this.line(error)
  }

  private usageEvent({inputTokens, outputTokens}: Usage): object {
    const {model, prices, provider} = this.summary
    const cost =
      prices && requestCost({input_tokens: inputTokens, model, output_tokens: outputTokens, provider}, prices)
    return {
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      turn: this.turn,
      type: 'usage',
      ...(cost === undefined ? {} : {cost_usd: cost}),
    }
  }

  private endTextLine(): void {
    const {markdown} = this.streams
    // The renderer ends every line it writes, the held last one included.
    if (markdown && this.wroteText) this.streams.stdout.write(markdown.flush())
    else if (this.wroteText) this.streams.stdout.write('\n')
    this.defused?.end()
    this.wroteText = false
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
      const {error, is_error: isError, output} = event.result
      return {error, id: event.call.id, is_error: isError, name: event.call.name, output, type: 'tool_result'}
    }

    default: {
      return event
    }
  }
}
