import stringWidth from 'string-width'

import type {StyledSpan} from './types.js'

const QUOTE_GUTTER = '│ '

/**
 * One rendered line (its spans, without the `\n`) cut into rows of at most `width` terminal
 * columns: between words where there is a space to break at, inside a word only when it is wider
 * than a row. A list item's continuation rows hang under its text, a quote's keep the gutter, so
 * wrapped prose reads as the block it belongs to. Spans keep their styles across the cut.
 */
export function wrapSpans(line: readonly StyledSpan[], width: number): StyledSpan[][] {
  const cells: Cell[] = []
  for (const [index, span] of line.entries()) {
    for (const ch of span.text) cells.push({ch, span: index, width: stringWidth(ch)})
  }

  if (cells.reduce((sum, cell) => sum + cell.width, 0) <= width) return [[...line]]
  const prefix = continuation(line, width)
  const prefixWidth = prefix.reduce((sum, span) => sum + stringWidth(span.text), 0)
  const rows: Cell[][] = []
  let row: Cell[] = []
  let used = 0
  for (const cell of cells) {
    const room = width - (rows.length > 0 ? prefixWidth : 0)
    if (used + cell.width > room && row.length > 0) {
      if (cell.ch === ' ') {
        rows.push(row)
        row = []
        used = 0
        continue
      }

      const space = row.findLastIndex((c) => c.ch === ' ')
      const carried = space > 0 ? row.splice(space + 1) : []
      rows.push(row)
      row = carried
      used = carried.reduce((sum, c) => sum + c.width, 0)
    }

    if (row.length === 0 && rows.length > 0 && cell.ch === ' ') continue
    row.push(cell)
    used += cell.width
  }

  if (row.length > 0) rows.push(row)
  return rows.map((cellsOfRow, index) => [...(index > 0 ? prefix : []), ...toSpans(trimEnd(cellsOfRow), line)])
}

interface Cell {
  ch: string
  span: number
  width: number
}

/** What a continuation row starts with: the leading indent, then the gutter again or blanks as wide as the bullet. */
function continuation(line: readonly StyledSpan[], width: number): StyledSpan[] {
  const prefix: StyledSpan[] = []
  for (const span of line) {
    if (span.text.trim() === '') {
      prefix.push(span)
      continue
    }

    if (span.style?.dim && span.text === QUOTE_GUTTER) prefix.push(span)
    else if (span.style?.dim && span.text.endsWith(' ') && span.text.length <= 12)
      prefix.push({text: ' '.repeat(stringWidth(span.text))})
    break
  }

  // An indent that would leave less than half the row for text is dropped.
  return prefix.reduce((sum, span) => sum + stringWidth(span.text), 0) * 2 > width ? [] : prefix
}

function trimEnd(cells: Cell[]): Cell[] {
  let end = cells.length
  while (end > 0 && cells[end - 1].ch === ' ') end--
  return cells.slice(0, end)
}

function toSpans(cells: readonly Cell[], line: readonly StyledSpan[]): StyledSpan[] {
  const spans: StyledSpan[] = []
  let last = -1
  for (const cell of cells) {
    if (cell.span === last) {
      spans.at(-1)!.text += cell.ch
      continue
    }

    const {style} = line[cell.span]
    spans.push(style ? {style, text: cell.ch} : {text: cell.ch})
    last = cell.span
  }

  return spans
}

/**
 * Plain text (a message, a list of commands and what they do) cut into rows of at most `width`
 * columns between words. Continuation rows hang under the text after the line's indent, or under
 * its second column (what follows two spaces), so a two-column list stays two columns.
 */
export function wrapPlain(line: string, width: number): string[] {
  if (stringWidth(line) <= width) return [line]
  const head = /^\s*\S.*?\s{2,}(?=\S)/.exec(line)?.[0] ?? /^\s*/.exec(line)![0]
  const hang = stringWidth(head)
  const rows = (text: string, room: number) =>
    wrapSpans([{text}], room).map((row) => row.map((span) => span.text).join(''))
  if (hang * 2 > width) return rows(line, width)
  return rows(line.slice(head.length), width - hang).map((row, index) => (index === 0 ? head : ' '.repeat(hang)) + row)
}
