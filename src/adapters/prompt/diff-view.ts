import type {ChalkInstance} from 'chalk'
import {createPatch} from 'diff'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

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

/**
 * The hunks of a unified diff (its `@@` lines and what follows them; file headers left out),
 * coloured as git colours them: hunk headers cyan, removals red, additions green.
 */
export function colouredDiff(patch: string, style: ChalkInstance, max: number): string[] {
  const lines = patch.split('\n')
  const start = lines.findIndex((line) => line.startsWith('@@'))
  if (start === -1) return []
  const body = lines.slice(start, lines.at(-1) === '' ? -1 : undefined)
  return capped(body, max).map((line, index) => {
    const shown = fileLine(line)
    if (index === max) return style.dim(shown)
    if (line.startsWith('@@')) return style.cyan(shown)
    if (line.startsWith('+')) return style.green(shown)
    if (line.startsWith('-')) return style.red(shown)
    return line.startsWith('\\') ? style.dim(shown) : shown
  })
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
