import type {ChalkInstance} from 'chalk'

import type {AgentEvent} from '../core/agent/loop.js'
import type {RunResult} from '../core/agent/runner.js'

export type OutputFormat = 'text' | 'json' | 'stream-json'

export interface RunSummary {
  sessionId: string
  model: string
}

interface Streams {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  /** Colour for stderr's progress lines (off when not a TTY or NO_COLOR). */
  style: ChalkInstance
  /** Shown on stderr while the model has not answered yet (text output on a terminal only). */
  spinner?: {start(): unknown; stop(): unknown}
}

/**
 * How `hanzo-dev run` reports (docs/run-output.md):
 * - text: the answer streams to stdout as it arrives; tool activity goes to stderr, so
 *   `hanzo-dev run ... > answer.txt` captures only the answer;
 * - json: one JSON object on stdout when the run ends;
 * - stream-json: one JSON event per line on stdout as the run goes, ending with the result.
 */
export class RunOutput {
  private wroteText = false

  constructor(
    private readonly format: OutputFormat,
    private readonly streams: Streams,
    private readonly summary: RunSummary,
  ) {}

  start(tools: readonly string[], cwd: string): void {
    this.line({cwd, model: this.summary.model, session_id: this.summary.sessionId, subtype: 'init', tools, type: 'system'})
  }

  event(event: AgentEvent): void {
    if (event.type === 'turn_start') this.streams.spinner?.start()
    else this.streams.spinner?.stop()
    if (this.format === 'stream-json') {
      this.line(streamEvent(event))
      return
    }

    if (this.format !== 'text') return
    const {stderr, stdout, style} = this.streams
    if (event.type === 'text_delta') {
      stdout.write(event.text)
      this.wroteText = true
    } else if (event.type === 'tool_call') {
      this.endTextLine()
      stderr.write(style.dim(`⏺ ${[event.call.name, oneLine(event.call.input)].filter(Boolean).join(' ')}\n`))
    } else if (event.type === 'tool_result' && event.result.is_error) {
      stderr.write(style.yellow(`  ↳ ${firstLine(event.result.error ?? 'failed')}\n`))
    }
  }

  finish(result: RunResult): void {
    this.streams.spinner?.stop()
    const summary = {
      is_error: result.stop !== 'completed',
      num_turns: result.turns,
      result: result.finalOutput,
      session_id: this.summary.sessionId,
      stop: result.stop,
      type: 'result',
      usage: {input_tokens: result.usage.inputTokens, output_tokens: result.usage.outputTokens},
    }
    if (this.format === 'text') this.endTextLine()
    else if (this.format === 'json') this.streams.stdout.write(`${JSON.stringify(summary, null, 2)}\n`)
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

  private endTextLine(): void {
    if (this.wroteText) this.streams.stdout.write('\n')
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

    case 'usage': {
      return {input_tokens: event.usage.inputTokens, output_tokens: event.usage.outputTokens, type: 'usage'}
    }

    default: {
      return event
    }
  }
}

/** A tool call's input in one short line: the command or path when there is one. */
function oneLine(input: Record<string, unknown>): string {
  const subject = input.command ?? input.path ?? input.pattern
  const text = typeof subject === 'string' ? subject : Object.keys(input).length > 0 ? JSON.stringify(input) : ''
  return firstLine(text).slice(0, 120)
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]
  return line.length < text.length ? `${line} …` : line
}
