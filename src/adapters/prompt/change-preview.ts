import type {FileChange} from '@hanzo-dev/sdk'
import {Chalk, type ChalkInstance} from 'chalk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {capped, colouredDiff, diffRows, fileLine, unifiedDiff} from './diff-view.js'

/** Lines of diff shown before a question; the rest is counted. */
export const PREVIEW_DIFF_LINES = 40
/** Lines of a new file shown before a question. */
export const PREVIEW_HEAD_LINES = 20

/** The question itself: the tool, and the call as its tool describes it (the input as JSON when it does not say). */
export function permissionQuestion(toolName: string, input: Readonly<Record<string, unknown>>, title?: string): string {
  const call = title ?? (Object.keys(input).length > 0 ? JSON.stringify(input) : '')
  return call === '' ? `Allow ${oneLine(toolName)}?` : `Allow ${oneLine(toolName)}: ${oneLine(call)}?`
}

/**
 * What a call would change (its tool's preview), shown before the permission question: lines to
 * print, indented, coloured with `style` (uncoloured without). Each file as a diff against its
 * text as it is, or the head of a new file, or of the new content when the file as it is could
 * not be read; each named first when there are several. Given the terminal's `columns`, long
 * lines wrap with their `+`/`-` gutter.
 */
export function changePreview(
  changes: readonly FileChange[],
  style: ChalkInstance = new Chalk({level: 0}),
  columns?: number,
): string[] {
  const width = columns === undefined ? undefined : columns - INDENT.length
  return changes.flatMap((change) => [
    ...(changes.length > 1 ? [`${INDENT}${style.bold(fileLine(change.path))}`] : []),
    ...fileChangeLines(change, style, width),
  ])
}

const INDENT = '  '

function fileChangeLines({after, before}: FileChange, style: ChalkInstance, width?: number): string[] {
  if (after === null) return indent([style.dim(before === null ? '(no change)' : 'the file is removed')])
  if (typeof before === 'string') return diffLines(before, after, style, width)
  const lines = after === '' ? [] : after.replace(/\n$/, '').split('\n')
  const title =
    before === null
      ? `new file, ${plural(lines.length)}`
      : `the file as it is cannot be shown (outside the workspace, binary, or over 1 MB); new content, ${plural(lines.length)}`
  return indent([
    style.dim(`${title}:`),
    ...capped(lines, PREVIEW_HEAD_LINES).flatMap((line, index) =>
      index === PREVIEW_HEAD_LINES
        ? [style.dim(line)]
        : diffRows(`+${fileLine(line)}`, width).map((row) => style.green(row)),
    ),
  ])
}

function diffLines(before: string, after: string, style: ChalkInstance, width?: number): string[] {
  const patch = unifiedDiff(before, after)
  if (patch === undefined) return indent([style.dim('(the change is too large to show)')])
  const lines = colouredDiff(patch, style, PREVIEW_DIFF_LINES, width)
  return indent(lines.length > 0 ? lines : [style.dim('(no change)')])
}

function indent(lines: string[]): string[] {
  return lines.map((line) => `${INDENT}${line}`)
}

function plural(count: number, noun = 'line'): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
