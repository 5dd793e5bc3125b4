import type {ToolResult} from '@hanzo-dev/sdk'
import type {ChalkInstance} from 'chalk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {capped, changeCounts, colouredDiff, fileLine} from '../adapters/prompt/diff-view.js'
import type {ToolCallRequest} from '../core/agent/types.js'

/** Lines of a result shown under its call; `--verbose` shows more. */
const BRIEF_LINES = 3
const VERBOSE_LINES = 20
const VERBOSE_DIFF_LINES = 40
const MAX_REASON_LENGTH = 2000

/**
 * What `run` prints on stderr (text output) under a finished tool call: one dimmed line saying how
 * it went (exec's exit code, the lines an edit changed or a read returned, a one-line result
 * itself, the line count of a longer one), and for exec
 * the first lines of its output; a failure's reason in yellow. `verbose` adds more lines, and an
 * edit's diff. Everything the tool or the model wrote is made safe for the terminal first.
 */
export function toolResultLines(call: ToolCallRequest, result: ToolResult, options: {style: ChalkInstance; verbose: boolean}): string[] {
  const {style, verbose} = options
  const detail = (lines: readonly string[], max: number) => capped(lines.map((line) => fileLine(line)), max).map((line) => style.dim(`    ${line}`))
  if (result.is_error) {
    const [reason, ...more] = textLines(result.error ?? 'failed')
    // Whole, not cut to a line's width: a denial's reason ends with the command that allows the call.
    return [style.yellow(`  ↳ ${oneLine(reason, MAX_REASON_LENGTH)}`), ...(verbose ? detail([...more, ...textLines(result.output)], VERBOSE_LINES) : [])]
  }

  if (call.name === 'exec') {
    const [status = '', ...rest] = result.output.split('\n')
    return [style.dim(`  ↳ ${fileLine(status.replace(/^exit code: /, 'exit '))}`), ...detail(execOutput(rest.join('\n')), verbose ? VERBOSE_LINES : BRIEF_LINES)]
  }

  if (call.name === 'fs_edit' && result.output.includes('\n@@')) {
    const {added, removed} = changeCounts(result.output)
    const diff = verbose ? colouredDiff(result.output, style, VERBOSE_DIFF_LINES).map((line) => `    ${line}`) : []
    return [style.dim(`  ↳ +${added} -${removed} lines`), ...diff]
  }

  const lines = textLines(result.output)
  if (call.name === 'fs_read') {
    const read = lines.filter((line) => /^ *\d+\t/.test(line)).length
    return [style.dim(`  ↳ ${read} line${read === 1 ? '' : 's'}`), ...(verbose ? detail(lines, VERBOSE_LINES) : [])]
  }

  if (lines.length <= 1) return [style.dim(`  ↳ ${lines[0] === undefined ? '(no output)' : fileLine(lines[0])}`)]
  return [style.dim(`  ↳ ${lines.length} lines`), ...(verbose ? detail(lines, VERBOSE_LINES) : [])]
}

/** exec's result after its status line: the stdout section, then stderr, each left out when `(none)`. */
function execOutput(sections: string): string[] {
  const match = /^--- stdout ---\n([\s\S]*?)\n--- stderr ---\n([\s\S]*)$/.exec(sections)
  if (!match) return textLines(sections)
  return [match[1], match[2]].filter((text) => text !== '(none)').flatMap((text) => textLines(text))
}

function textLines(text: string): string[] {
  const trimmed = text.replace(/\n+$/, '')
  return trimmed === '' ? [] : trimmed.split('\n')
}
