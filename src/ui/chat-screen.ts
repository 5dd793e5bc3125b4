import type {ContextBudget, UsageTotals} from '@hanzo-dev/sdk'
import type {ChalkInstance} from 'chalk'
import {oneLine, printable} from '@hanzo-dev/sdk/terminal-text'

import {UNBUDGETED_NOTICE_TOKENS} from '../adapters/agent-session/compaction-budget.js'
import type {PromptWidget} from './prompt-widget.js'
import {fitRow, type LiveRegion, type RegionCursor} from './live-region.js'

/** What the bottom of the screen shows besides the prompt. */
export interface ScreenState {
  /** The line a reply is still writing (not yet committed). */
  partial: string
  /** What the reply holds back until a block is complete (a code block, a table). */
  held?: string
  /** A permission question, or the reason being typed for a denial. */
  question: string[]
  /** The plan's lines (todo_write), while a turn runs. */
  todos?: readonly string[]
  /** A line per `task` child running. */
  subagents?: readonly string[]
  /** A spinner line while the model thinks or a tool runs. */
  busy?: string
  /** Prompts waiting for the running one to end. */
  queued?: readonly string[]
  /** One line under the prompt: a notice (`Press Ctrl-C again to exit`) or an error. */
  notice?: string
  /** The command menu's rows, under the prompt while a command's name is typed. */
  menu?: string[]
  /** Shift+Tab's mode, when not the default (`⏵⏵ accept edits on`). */
  mode?: string
  status: string
}

const PROMPT = '› '
const MORE = '  '

/**
 * Draws the live region: the unfinished reply line, the question, the prompt (with its cursor)
 * and the status line. The prompt's text is the widget's; its lines are prefixed, not wrapped by
 * us, so the cursor column is the one in the text plus the prefix.
 */
export function drawScreen(
  region: LiveRegion,
  widget: PromptWidget,
  state: ScreenState,
  style: ChalkInstance,
  /** Typing that answers a question (a denial's reason, a form's field) instead of the prompt. */
  answer?: {widget: PromptWidget; label: string},
): void {
  const lines: string[] = []
  if (state.held) lines.push(style.dim(state.held))
  if (state.partial) lines.push(state.partial)
  lines.push(...(state.todos ?? []))
  lines.push(...(state.subagents ?? []))
  if (state.busy) lines.push(style.cyan(state.busy))
  for (const text of state.queued ?? []) lines.push(style.dim(`Queued: ${oneLine(text, 80)}`))
  lines.push(...state.question)
  const input = answer?.widget ?? widget
  const label = answer?.label ?? PROMPT
  // Tab completion puts file names into the prompt: shown, never obeyed, the cursor counted on what is shown.
  const text = printable(input.text).split('\n')
  const before = printable(input.text.slice(0, input.cursor)).split('\n')
  const cursor: RegionCursor = {
    column: (before.length === 1 ? label.length : MORE.length) + before.at(-1)!.length,
    line: lines.length + before.length - 1,
  }
  lines.push(...text.map((line, index) => `${index === 0 ? style.bold(label) : MORE}${line}`))
  const command = widget.commandLine
  if (command !== undefined) {
    lines.push(command)
    cursor.line = lines.length - 1
    cursor.column = command.length
  }

  lines.push(...(state.menu ?? []))
  // A notice may list file names (Tab's candidates).
  if (state.notice) lines.push(style.yellow(oneLine(state.notice, Number.POSITIVE_INFINITY)))
  if (state.mode) lines.push(style.magenta(fitRow(state.mode, region.width)))
  const mode = widget.vimMode && widget.vimMode !== 'command' ? `-- ${widget.vimMode.toUpperCase()} -- ` : ''
  // One row, whatever the width: a wrapped status line would push the prompt up.
  lines.push(style.dim(`${style.bold(mode)}${fitRow(state.status, region.width - mode.length)}`))
  region.draw(lines, cursor)
}

export interface StatusFacts {
  model: string
  /** The last request's tokens: how big the conversation is as the model sees it. */
  contextTokens: number
  /** Compaction starts at 90% of it: the context is shown as a share of it, or said to have no compaction. */
  contextBudget?: ContextBudget
  usage: UsageTotals
  permissionMode: string
  /** What plugins said for the status line (`sandbox: workspace`). */
  items: readonly string[]
}

/** `model · context 12% · 1200 in / 80 out · $0.0100 · prompt · sandbox: workspace · /help` */
export function statusLine(facts: StatusFacts): string {
  const {contextBudget: budget, contextTokens: used, usage} = facts
  const context = budget?.tokens
    ? `context ${Math.min(100, Math.round((100 * used) / budget.tokens))}%`
    : `context ${compactCount(used)}`
  // Said once it matters: a long conversation on an unknown model will overflow it, not compact.
  const unbudgeted = budget?.source === 'unknown' && used >= UNBUDGETED_NOTICE_TOKENS ? ['no auto-compaction'] : []
  const cost = usage.cost_usd === undefined ? [] : [`$${usage.cost_usd.toFixed(4)}`]
  // A plugin wrote these words, a project's settings may have named the model: shown defused, each item on one short line.
  const items = facts.items.map((item) => oneLine(item, 40))
  return [
    oneLine(facts.model, Number.POSITIVE_INFINITY),
    context,
    ...unbudgeted,
    `${usage.input_tokens} in / ${usage.output_tokens} out`,
    ...cost,
    facts.permissionMode,
    ...items,
    '/help',
  ].join(' · ')
}

/** 950, 12.3k, 128k: a token count that fits a status line. */
function compactCount(tokens: number): string {
  if (tokens < 1000) return String(tokens)
  return tokens < 10_000 ? `${(tokens / 1000).toFixed(1)}k` : `${Math.round(tokens / 1000)}k`
}
