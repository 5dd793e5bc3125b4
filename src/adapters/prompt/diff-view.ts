import type {ChalkInstance} from 'chalk'
import {createPatch} from 'diff'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'
import stringWidth from 'string-width'

import {wrapSpans} from '../../core/markdown/wrap.js'

/** Past this many changed lines a diff is not computed (fs_edit's own limit): its cost grows with both sides. */
const DIFF_MAX_EDIT_LENGTH = 5000

/** A line of a file as a terminal shows it: tabs as four spaces, escape sequences defused, cut at 160. */
export function fileLine(line: string): string {
  return oneLine(line.replaceAll('\t', '    '), 160)
}

/** The first `max` lines, then one saying how many more there are: nothing shown floods the terminal. */
export function capped(lines: readonly string[], max: number): string[] {
  if (lines.length <= max) return [...lines]
  const more = lines.length - max
  return [...lines.slice(0, max), `… ${more} more line${more === 1 ? '' : 's'}`]
}

/** The unified diff from `before` to `after` with 3 lines of context; undefined when it is too large to compute. */
export function unifiedDiff(before: string, after: string): string | undefined {
  return createPatch('', before, after, undefined, undefined, {context: 3, maxEditLength: DIFF_MAX_EDIT_LENGTH})
}

/** Narrower than this, a diff line is left for the terminal to wrap. */
const MIN_DIFF_WIDTH = 20

/**
 * A diff line (`+added`, `-removed`, ` context`, after {@link fileLine}) as rows of at most
 * `width` columns, cut between words, each continuation row under the same `+`/`-`/` ` gutter, so
 * a wrapped line still reads as an addition or a removal. Without a width (off a terminal), whole.
 */
export function diffRows(line: string, width?: number): string[] {
  if (width === undefined || width < MIN_DIFF_WIDTH || stringWidth(line) <= width) return [line]
  const sign = /^[+\- ]/.test(line) ? line[0] : ''
  return wrapSpans([{text: line.slice(sign.length)}], width - sign.length).map(
    (row) => sign + row.map((span) => span.text).join(''),
  )
}

/**
 * The hunks of a unified diff (its `@@` lines and what follows them; file headers left out),
 * coloured as git colours them: hunk headers cyan, removals red, additions green; fitted to
 * `width` columns when given ({@link diffRows}).
 */
export function colouredDiff(patch: string, style: ChalkInstance, max: number, width?: number): string[] {
  const lines = patch.split('\n')
  const start = lines.findIndex((line) => line.startsWith('@@'))
  if (start === -1) return []
  const body = lines.slice(start, lines.at(-1) === '' ? -1 : undefined)
  return capped(body, max).flatMap((line, index) => {
    const paint = index === max ? style.dim : painter(line, style)
    return diffRows(fileLine(line), width).map((row) => paint(row))
  })
}

function painter(line: string, style: ChalkInstance): (row: string) => string {
  if (line.startsWith('@@')) return style.cyan
  if (line.startsWith('+')) return style.green
  if (line.startsWith('-')) return style.red
  return line.startsWith('\\') ? style.dim : (row) => row
}

/** How many lines a unified diff adds and removes. */
export function changeCounts(patch: string): {added: number; removed: number} {
  const lines = patch.split('\n')
  const start = lines.findIndex((line) => line.startsWith('@@'))
  const body = start === -1 ? [] : lines.slice(start)
  return {
    added: body.filter((line) => line.startsWith('+')).length,
    removed: body.filter((line) => line.startsWith('-')).length,
  }
}
