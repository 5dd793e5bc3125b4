import type {
  CallItemBase,
  CompactionItem,
  EditDetails,
  ExecuteDetails,
  ReadDetails,
  ToolResult,
  TurnItem,
} from '@hanzo-dev/sdk'
import type {ChalkInstance} from 'chalk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {capped, changeCounts, colouredDiff, fileLine, unifiedDiff} from '../adapters/prompt/diff-view.js'
import {todoLines} from './todo-lines.js'

/** Lines of a result shown under its call; `--verbose` shows more. */
const BRIEF_LINES = 3
const VERBOSE_LINES = 20
const VERBOSE_DIFF_LINES = 40
const MAX_REASON_LENGTH = 2000
const DIFF_INDENT = '    '

interface Options {
  style: ChalkInstance
  verbose: boolean
  /** The terminal's width, when it is one: an edit's diff is fitted to it. */
  columns?: number
}

export type CallItem = Extract<TurnItem, CallItemBase>

export function isCallItem(item: TurnItem): item is CallItem {
  return item.type === 'command_execution' || item.type === 'file_change' || item.type === 'tool_call'
}

/** The line printed when a call starts: its tool and, as the tool describes it, the call. */
export function callLine(item: CallItem, style: ChalkInstance): string {
  return style.dim(`⏺ ${fileLine(item.title === '' ? item.name : `${item.name} ${item.title}`)}`)
}

/**
 * The line printed when a compaction starts (`running`), and the record of it when it is done:
 * what it summarized, what it freed, what it kept verbatim, and why there is no summary when
 * there is none (the reason may quote a server's error: shown on one line, defused).
 */
export function compactionLine(item: CompactionItem, style: ChalkInstance): string {
  const {budget, tokensBefore} = item
  if (item.status === 'running') {
    const share = Math.round((100 * tokensBefore) / budget)
    return style.dim(`⏺ Compacting the conversation: ${count(tokensBefore)} tokens of ${count(budget)} (${share}%)…`)
  }

  const {compactedCount, compactedTokens, fallbackReason, kept, strategy, tokensSaved} = item
  const how = strategy === 'summary' ? 'summarized' : 'cut short without a summary'
  const verbatim = [
    ...(kept.systemPrompt ? ['the system prompt with the project instructions (AGENTS.md)'] : []),
    ...(kept.todos > 0 ? [`the todo list (${plural(kept.todos, 'step')})`] : []),
    ...(kept.latestRequest ? ['the latest request'] : []),
    kept.recentTurns === 1 ? 'the last turn' : `the last ${kept.recentTurns} turns`,
  ]
  const record = style.dim(
    `⏺ compacted the conversation: ${plural(compactedCount, 'earlier message')} (about ${count(compactedTokens)} tokens) ${how}, about ${count(Math.max(0, tokensSaved))} tokens freed; kept verbatim: ${verbatim.join(', ')}`,
  )
  return fallbackReason === undefined
    ? record
    : `${record}\n${style.yellow(`  ${oneLine(fallbackReason, MAX_REASON_LENGTH)}`)}`
}

const count = (tokens: number) => tokens.toLocaleString('en-US')

/**
 * What `run` prints on stderr (text output) under a finished tool call: one dimmed line saying how
 * it went, from what the tool reported beside the model's text (its `details`): a command's exit
 * and the first lines of its output, the lines an edit changed, what a read or a search returned,
 * the plan as a call left it;
 * for a tool that reports nothing, a one-line result itself or the line count of a longer one. A
 * failure's reason in yellow. `verbose` adds more lines, and an edit's diff. Everything the tool
 * or the model wrote is made safe for the terminal first.
 */
export function toolResultLines(result: ToolResult, options: Options): string[] {
  const {style, verbose} = options
  if (result.is_error) {
    const [reason, ...more] = textLines(result.error ?? 'failed')
    // Whole, not cut to a line's width: a denial's reason ends with the command that allows the call.
    return [
      style.yellow(`  ↳ ${oneLine(reason, MAX_REASON_LENGTH)}`),
      ...(verbose ? detail([...more, ...textLines(result.output)], VERBOSE_LINES, style) : []),
    ]
  }

  switch (result.details?.kind) {
    case 'execute': {
      return executeLines(result.details, options)
    }

    case 'edit': {
      return editLines(result.details, options) ?? plainLines(result.output, options)
    }

    case 'read': {
      const lines = textLines(result.output)
      return [
        style.dim(`  ↳ ${readSummary(result.details) ?? plural(lines.length, 'line')}`),
        ...(verbose ? detail(lines, VERBOSE_LINES, style) : []),
      ]
    }

    case 'todo': {
      return todoLines(result.details.todos, style, DIFF_INDENT)
    }

    default: {
      return plainLines(result.output, options)
    }
  }
}

/** The exit, then the output: stdout, then stderr. */
function executeLines({exitCode, signal, stderr, stdout}: ExecuteDetails, {style, verbose}: Options): string[] {
  const status = exitCode === null ? `killed by signal ${signal ?? 'unknown'}` : `exit ${exitCode}`
  return [
    style.dim(`  ↳ ${status}`),
    ...detail([...textLines(stdout), ...textLines(stderr)], verbose ? VERBOSE_LINES : BRIEF_LINES, style),
  ]
}

/** The lines changed, over every file, and with `verbose` each file's diff; undefined when a file's text before is not known. */
function editLines({files}: EditDetails, {columns, style, verbose}: Options): string[] | undefined {
  const diffs: Array<{path: string; patch: string}> = []
  for (const {after, before, path} of files) {
    if (before === undefined) return undefined
    const patch = unifiedDiff(before ?? '', after ?? '')
    if (patch === undefined) return undefined
    diffs.push({patch, path})
  }

  const counts = diffs.map(({patch}) => changeCounts(patch))
  const added = counts.reduce((sum, count) => sum + count.added, 0)
  const removed = counts.reduce((sum, count) => sum + count.removed, 0)
  const where = files.length === 1 ? '' : `${plural(files.length, 'file')}, `
  const shown = verbose
    ? diffs.flatMap(({patch, path}) =>
        [
          ...(files.length === 1 ? [] : [style.bold(fileLine(path))]),
          ...colouredDiff(patch, style, VERBOSE_DIFF_LINES, columns && columns - DIFF_INDENT.length),
        ].map((line) => `${DIFF_INDENT}${line}`),
      )
    : []
  return [style.dim(`  ↳ ${where}+${added} -${removed} lines`), ...shown]
}

function readSummary({lines, matches}: ReadDetails): string | undefined {
  if (lines !== undefined) return plural(lines, 'line')
  return matches === undefined ? undefined : plural(matches, 'match', 'matches')
}

/** A one-line result itself, else its line count (the lines with `verbose`). */
function plainLines(output: string, {style, verbose}: Options): string[] {
  const lines = textLines(output)
  if (lines.length <= 1) return [style.dim(`  ↳ ${lines[0] === undefined ? '(no output)' : fileLine(lines[0])}`)]
  return [style.dim(`  ↳ ${lines.length} lines`), ...(verbose ? detail(lines, VERBOSE_LINES, style) : [])]
}

function detail(lines: readonly string[], max: number, style: ChalkInstance): string[] {
  return capped(
    lines.map((line) => fileLine(line)),
    max,
  ).map((line) => style.dim(`    ${line}`))
}

function textLines(text: string): string[] {
  const trimmed = text.replace(/\n+$/, '')
  return trimmed === '' ? [] : trimmed.split('\n')
}

export function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`
}
