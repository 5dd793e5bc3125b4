import stringWidth from 'string-width'

import {inlineSpans} from './inline.js'
import type {StyledSpan} from './types.js'
import {wrapSpans} from './wrap.js'

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

const SEPARATOR: StyledSpan = {style: {dim: true}, text: ' │ '}
/** Narrower than this (or than its widest cell), a column reads badly: a table that needs one is shown as a list. */
const MIN_COLUMN = 8

/**
 * The table as lines of spans: columns padded to their widest cell and aligned as the
 * delimiter row says, the header bold, a rule under it. Given `maxWidth` (the terminal's), a
 * table wider than that has its widest columns narrowed and their cells wrapped between words;
 * one that cannot fit with every column at least MIN_COLUMN wide becomes a list of
 * `header: value` lines, a blank line between rows, so nothing is cut or wrapped by the terminal.
 */
export function renderTable(header: string, aligns: Align[], rows: string[], maxWidth?: number): StyledSpan[][] {
  const parse = (row: string, bold: boolean) => {
    const cells = splitRow(row)
    return aligns.map((_, i) => inlineSpans(cells[i] ?? '', bold ? {bold: true} : {}))
  }

  const table = [parse(header, true), ...rows.map((r) => parse(r, false))]
  const natural = aligns.map((_, col) => Math.max(1, ...table.map((row) => width(row[col]))))
  const widths =
    maxWidth === undefined ? natural : fitted(natural, maxWidth - SEPARATOR.text.length * (aligns.length - 1))
  if (!widths) return recordList(table, maxWidth!)
  const line = (row: StyledSpan[][]) => {
    const wrapped = row.map((cell, col) => wrapSpans(cell, widths[col]))
    const height = Math.max(...wrapped.map((cell) => cell.length))
    return Array.from({length: height}, (_, index) => {
      const out: StyledSpan[] = []
      for (const [col, cell] of wrapped.entries()) {
        const part = cell[index] ?? []
        // No trailing blank after the last separator when the last cell has nothing on this row.
        if (col > 0) out.push(part.length === 0 && col === row.length - 1 ? {...SEPARATOR, text: ' │'} : {...SEPARATOR})
        const pad = widths[col] - width(part)
        const left = aligns[col] === 'right' ? pad : aligns[col] === 'center' ? Math.floor(pad / 2) : 0
        if (left) out.push({text: ' '.repeat(left)})
        out.push(...part)
        // The last column is not padded on the right: no trailing blanks on the terminal.
        if (pad - left && col < row.length - 1) out.push({text: ' '.repeat(pad - left)})
      }

      return out
    })
  }

  const rule: StyledSpan[] = [{style: {dim: true}, text: widths.map((w) => '─'.repeat(w)).join('─┼─')}]
  return [...line(table[0]), rule, ...table.slice(1).flatMap((row) => line(row))]
}

/** Column widths that fit `room` (the widest columns give way first), or undefined when that would make one too narrow. */
function fitted(natural: readonly number[], room: number): number[] | undefined {
  const least = natural.map((w) => Math.min(w, MIN_COLUMN))
  if (least.reduce((sum, w) => sum + w, 0) > room) return undefined
  const widths = [...natural]
  for (let excess = widths.reduce((sum, w) => sum + w, 0) - room; excess > 0; excess--) {
    let widest = -1
    for (const [col, w] of widths.entries()) if (w > least[col] && (widest === -1 || w > widths[widest])) widest = col
    widths[widest]--
  }

  return widths
}

/** A table too wide for the terminal: each row as its `header: value` lines, wrapped to `maxWidth`. */
function recordList(table: StyledSpan[][][], maxWidth: number): StyledSpan[][] {
  const [header, ...body] = table
  if (body.length === 0) return header.flatMap((cell) => wrapSpans(cell, maxWidth))
  return body.flatMap((row, index) => [
    ...(index > 0 ? [[]] : []),
    ...row.flatMap((cell, col) => wrapSpans([...header[col], {text: ': '}, ...cell], maxWidth)),
  ])
}
