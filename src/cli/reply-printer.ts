import type {ChalkInstance} from 'chalk'
import {PrintableStream} from '@hanzo-dev/sdk/terminal-text'

import {paintSpans} from '../adapters/markdown-paint.js'
import {MdRenderer, type StyledSpan, wrapSpans} from '../core/markdown/index.js'

/**
 * The model's reply as it streams into the chat. It is defused first (the model wrote it: its
 * escape sequences, lone CRs and bidi overrides never reach the terminal, and so never an OSC-8
 * link target either), rendered as markdown a complete line at a time, and (given the terminal's
 * width) wrapped between words. The chat wraps; `run` leaves long lines to the terminal, so what
 * is copied from its screen is the line as written. Tables are fitted to `tableColumns` (the
 * width, by default): cells wrap, or a table too wide for that becomes a list. Complete lines go
 * to the scrollback; the line still being written shows as it is, under them, in a live region.
 */
export class ReplyPrinter {
  private renderer: MdRenderer
  private defused = new PrintableStream()
  private tail = ''

  constructor(
    private readonly style: ChalkInstance,
    private readonly columns?: () => number,
    tableColumns = columns,
  ) {
    const width = tableColumns && (() => (tableColumns() > 0 ? Math.max(20, tableColumns()) : undefined))
    this.renderer = new MdRenderer({width})
  }

  /** A piece of the reply; returns the rows now complete, painted, each ended by `\n` (or ''). */
  push(text: string): string {
    const chunk = this.defused.push(text)
    const newline = chunk.lastIndexOf('\n')
    this.tail = newline === -1 ? this.tail + chunk : chunk.slice(newline + 1)
    return this.paint(this.renderer.renderChunk(chunk))
  }

  /** The end of the reply: the rows still held (the last line, an unclosed fence), and a fresh state. */
  flush(): string {
    this.defused.end()
    this.tail = ''
    return this.paint(this.renderer.flush())
  }

  /** The line being written, as sent so far. */
  get partial(): string {
    return this.tail.replaceAll('\t', '    ')
  }

  /** What a code block or table holds back until it is complete (it is shown whole, highlighted or aligned). */
  get held(): string | undefined {
    const lines = this.renderer.held
    return lines > 0 ? `… ${lines} line${lines === 1 ? '' : 's'} of a block, shown when it is complete` : undefined
  }

  private paint(spans: readonly StyledSpan[]): string {
    let rows = ''
    const width = this.columns ? Math.max(20, this.columns()) : undefined
    let line: StyledSpan[] = []
    for (const span of spans) {
      if (span.text !== '\n') {
        line.push(span.text.includes('\t') ? {...span, text: span.text.replaceAll('\t', '    ')} : span)
        continue
      }

      for (const row of width ? wrapSpans(line, width) : [line]) rows += `${paintSpans(row, this.style)}\n`
      line = []
    }

    return rows
  }
}
