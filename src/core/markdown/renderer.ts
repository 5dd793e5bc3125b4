import {type FenceOpen, fenceCloses, fenceOpen, lineSpans} from './blocks.js'
import {highlightLines} from './highlight.js'
import {delimiterRow, maybeRow, renderTable} from './table.js'
import type {StyledSpan} from './types.js'

const NEWLINE: StyledSpan = {text: '\n'}

/**
 * Streaming markdown to styled spans (HIP-301 §15). Text is decided one complete line at a
 * time: inline markup cannot be known mid-line (`**bo` may or may not close), so a partial
 * last line waits for its newline or `flush()`. Blocks that need more than their line wait
 * longer: a fence until it closes (it is highlighted in one pass), a table until its last row
 * (widths need every row), a line holding `|` one more line (it may be a table's header).
 *
 * Each chunk is scanned once and each line parsed once, so the work is linear in the input
 * however it is chunked, and any chunking gives the same spans as the whole input at once.
 */
export class MdRenderer {
  private partial = ''
  private fence: undefined | {open: FenceOpen; lines: string[]}
  private table: undefined | {header: string; aligns: NonNullable<ReturnType<typeof delimiterRow>>; rows: string[]}
  private headerCandidate: string | undefined

  /** `width`: the columns a table is fitted to (cells wrap, or it becomes a list); none, tables are as wide as their cells. */
  constructor(private readonly options: {width?: () => number | undefined} = {}) {}

  renderChunk(chunk: string): StyledSpan[] {
    const out: StyledSpan[] = []
    let start = 0
    let newline = chunk.indexOf('\n')
    while (newline !== -1) {
      const line = this.partial + chunk.slice(start, newline)
      this.partial = ''
      this.line(line.endsWith('\r') ? line.slice(0, -1) : line, out)
      start = newline + 1
      newline = chunk.indexOf('\n', start)
    }

    this.partial += chunk.slice(start)
    return out
  }

  /** Complete lines held back: a fence not yet closed, a table not yet ended, a possible table header. */
  get held(): number {
    const fence = this.fence ? this.fence.lines.length + 1 : 0
    const table = this.table ? this.table.rows.length + 2 : 0
    return fence + table + (this.headerCandidate === undefined ? 0 : 1)
  }

  /** The end of the message: the held line, table or unclosed fence, and a fresh state. */
  flush(): StyledSpan[] {
    const out: StyledSpan[] = []
    if (this.partial) {
      const line = this.partial.endsWith('\r') ? this.partial.slice(0, -1) : this.partial
      this.partial = ''
      this.line(line, out)
    }

    this.endHeld(out)
    if (this.fence) this.endFence(out)
    return out
  }

  private line(line: string, out: StyledSpan[]): void {
    if (this.fence) {
      if (fenceCloses(line, this.fence.open)) this.endFence(out)
      else this.fence.lines.push(line)
      return
    }

    if (this.table) {
      if (maybeRow(line)) {
        this.table.rows.push(line)
        return
      }

      this.endHeld(out)
    }

    if (this.headerCandidate !== undefined) {
      const header = this.headerCandidate
      const aligns = delimiterRow(line, header)
      if (aligns) {
        this.headerCandidate = undefined
        this.table = {aligns, header, rows: []}
        return
      }

      this.endHeld(out)
    }

    const open = fenceOpen(line)
    if (open) {
      this.fence = {lines: [], open}
      return
    }

    if (maybeRow(line)) {
      this.headerCandidate = line
      return
    }

    emitLine(lineSpans(line), out)
  }

  /** A held header candidate that was not one, or a finished table. */
  private endHeld(out: StyledSpan[]): void {
    if (this.headerCandidate !== undefined) emitLine(lineSpans(this.headerCandidate), out)
    this.headerCandidate = undefined
    if (this.table) {
      for (const row of renderTable(this.table.header, this.table.aligns, this.table.rows, this.options.width?.()))
        emitLine(row, out)
    }

    this.table = undefined
  }

  private endFence(out: StyledSpan[]): void {
    const {lines, open} = this.fence!
    this.fence = undefined
    if (lines.length === 0) return
    for (const row of highlightLines(lines.join('\n'), open.language)) emitLine(row, out)
  }
}

function emitLine(spans: StyledSpan[], out: StyledSpan[]): void {
  for (const span of spans) out.push(span)
  out.push({...NEWLINE})
}
