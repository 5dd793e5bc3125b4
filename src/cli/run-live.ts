import type {ChalkInstance} from 'chalk'

import {BusyLine} from '../ui/busy-line.js'
import {LiveRegion} from '../ui/live-region.js'
import {type Diverted, divertWrites} from './divert-writes.js'
import type {Spinner} from './spinner.js'

/**
 * What `run` keeps live at the bottom of a terminal, under everything it writes: while the model
 * is awaited, a spinner with the seconds waited and how to cancel; while the answer streams, the
 * line it is still writing (and what a table or code block holds back). What is written goes
 * above it, and it is drawn again below.
 */
export interface LiveOutput extends Spinner {
  /** The answer goes on: `rows`, complete, are written to stdout, and `lines` are what it is still writing. */
  answer(rows: string, lines: readonly string[]): void
  /** Writes `text` on `stream` above what is live. */
  write(stream: NodeJS.WritableStream, text: string): void
  /** Takes what is live off the screen for good; writes go straight to their stream again. */
  close(): void
}

/** Only a terminal that reports its width can be redrawn: `script </dev/null` gives 0 columns. */
function redrawable(stream: NodeJS.WriteStream): boolean {
  return Boolean(stream.isTTY) && stream.columns > 0
}

/**
 * The live part of `run`'s output, or undefined when neither stream can show one. The spinner is
 * drawn on stderr (a terminal), as progress is: `2>/dev/null` hides it. The answer's unfinished
 * line is drawn on stdout when `answer` (stdout is a terminal that renders markdown). While it is
 * up, whatever else writes to stderr (a plugin's warning, `warn`, Node's warnings) is put above it.
 */
export function liveOutput(
  stdout: NodeJS.WriteStream,
  stderr: NodeJS.WriteStream,
  style: ChalkInstance,
  options: {answer: boolean},
): LiveOutput | undefined {
  const answer = options.answer && redrawable(stdout)
  if (!answer && !redrawable(stderr)) return undefined
  return new RunLive(stdout, stderr, style, answer)
}

class RunLive implements LiveOutput {
  private readonly busy = new BusyLine(() => this.draw(), 'Ctrl-C to cancel')
  private lines: readonly string[] = []
  private readonly status?: LiveRegion
  private readonly reply?: LiveRegion
  private readonly diverted?: Diverted

  constructor(
    private readonly stdout: NodeJS.WriteStream,
    private readonly stderr: NodeJS.WriteStream,
    private readonly style: ChalkInstance,
    answer: boolean,
  ) {
    if (answer) this.reply = new LiveRegion(stdout)
    if (!redrawable(stderr)) return
    this.diverted = divertWrites(stderr, (text) => this.write(stderr, text))
    this.status = new LiveRegion({
      get columns() {
        return stderr.columns
      },
      get rows() {
        return stderr.rows
      },
      write: (text) => this.diverted!.write(text),
    })
  }

  start(): void {
    if (!this.status || this.busy.busy) return
    this.busy.start('Thinking')
    this.draw()
  }

  stop(): void {
    if (!this.busy.busy) return
    this.busy.stop()
    this.draw()
  }

  answer(rows: string, lines: readonly string[]): void {
    this.busy.stop()
    this.lines = lines.filter((line) => line !== '')
    if (rows === '') this.draw()
    else this.write(this.stdout, rows)
  }

  write(stream: NodeJS.WritableStream, text: string): void {
    this.status?.clear()
    this.reply?.clear()
    if (stream === this.stderr && this.diverted) this.diverted.write(text)
    else stream.write(text)
    this.draw()
  }

  close(): void {
    this.busy.stop()
    this.lines = []
    this.draw()
    this.diverted?.restore()
  }

  /** One of the two at a time: the spinner waits for an answer, which then takes its place. */
  private draw(): void {
    const busy = this.busy.text
    if (busy) this.status?.draw([this.style.cyan(busy)], atEnd(busy))
    else this.status?.clear()
    if (this.lines.length > 0 && !busy)
      this.reply?.draw([...this.lines], atEnd(this.lines.at(-1)!, this.lines.length - 1))
    else this.reply?.clear()
  }
}

/** The cursor after the last character of a drawn line (plain text). */
function atEnd(line: string, index = 0) {
  return {column: line.length, line: index}
}
