import stringWidth from 'string-width'

import {inlineSpans} from './inline.js'
import type {StyledSpan} from './types.js'

/** Pipe tables: rows are held until the table ends, since column widths need every row. */

type Align = 'center' | 'left' | 'right'

/** A line that could be a table row: it holds a `|` outside a leading/trailing blank. */
export function maybeRow(line: string): boolean {
  return line.includes('|') && line.trim() !== '|'
}

const DELIMITER_CELL = /^\s*:?-+:?\s*$/
/** The delimiter row under the header (`|---|:--:|`), with one cell per header cell. */
export function delimiterRow(line: string, header: string): Align[] | undefined {
  const cells = splitRow(line)
  if (cells.length === 0 || !cells.every((c) => DELIMITER_CELL.test(c))) return undefined
  if (cells.length !== splitRow(header).length) return undefined
  return cells.map((c) => {
    const t = c.trim()
    if (t.startsWith(':') && t.endsWith(':')) return 'center'
    return t.endsWith(':') ? 'right' : 'left'
  })
}

/** Cells of a row: leading and trailing pipes are optional, `\|` is a literal pipe. */
export function splitRow(line: string): string[] {
  let body = line.trim()
  if (body.startsWith('|')) body = body.slice(1)
  if (body.endsWith('|') && !body.endsWith('\\|')) body = body.slice(0, -1)
  const cells: string[] = []
  let cell = ''
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\' && body[i + 1] === '|') {
      cell += '\\|'
      i++
    } else if (body[i] === '|') {
      cells.push(cell)
      cell = ''
    } else {
      cell += body[i]
    }
  }

  cells.push(cell)
  return cells.map((c) => c.trim())
}

/** Terminal columns, so a column of CJK text or emoji lines up with its neighbours. */
const width = (spans: StyledSpan[]) => spans.reduce((n, s) => n + stringWidth(s.text), 0)

/**
 * The table as lines of spans: columns padded to their widest cell and aligned as the
 * delimiter row says, the header bold, a rule under it.
 */
export function renderTable(header: string, aligns: Align[], rows: string[]): StyledSpan[][] {
  const parse = (row: string, bold: boolean) => {
    const cells = splitRow(row)
    return aligns.map((_, i) => inlineSpans(cells[i] ?? '', bold ? {bold: true} : {}))
  }

  const table = [parse(header, true), ...rows.map((r) => parse(r, false))]
  const widths = aligns.map((_, col) => Math.max(1, ...table.map((row) => width(row[col]))))
  const line = (row: StyledSpan[][]) => {
    const out: StyledSpan[] = []
    for (const [col, cell] of row.entries()) {
      if (col > 0) out.push({style: {dim: true}, text: ' │ '})
      const pad = widths[col] - width(cell)
      const left = aligns[col] === 'right' ? pad : aligns[col] === 'center' ? Math.floor(pad / 2) : 0
      if (left) out.push({text: ' '.repeat(left)})
      out.push(...cell)
      // The last column is not padded on the right: no trailing blanks on the terminal.
      if (pad - left && col < row.length - 1) out.push({text: ' '.repeat(pad - left)})
    }

    return out
  }

  const rule: StyledSpan[] = [{style: {dim: true}, text: widths.map((w) => '─'.repeat(w)).join('─┼─')}]
  return [line(table[0]), rule, ...table.slice(1).map((row) => line(row))]
}
