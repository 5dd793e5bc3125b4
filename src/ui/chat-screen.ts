import type {ChalkInstance} from 'chalk'

import type {PromptWidget} from './prompt-widget.js'
import type {LiveRegion, RegionCursor} from './live-region.js'

/** What the bottom of the screen shows besides the prompt. */
export interface ScreenState {
  /** The line a reply is still writing (not yet committed). */
  partial: string
  /** What the reply holds back until a block is complete (a code block, a table). */
  held?: string
  /** A permission question, or the reason being typed for a denial. */
  question: string[]
  /** A spinner line while the model thinks or a tool runs. */
  busy?: string
  /** One line under the prompt: a notice (`Press Ctrl-C again to exit`) or an error. */
  notice?: string
  status: string
}

const PROMPT = '› '
const MORE = '  '

/**
 * Draws the live region: the unfinished reply line, the question, the prompt (with its cursor)
 * and the status line. The prompt's text is the widget's; its lines are prefixed, not wrapped by
 * us, so the cursor column is the one in the text plus the prefix.
 */
export function drawScreen(region: LiveRegion, widget: PromptWidget, state: ScreenState, style: ChalkInstance, reason?: PromptWidget): void {
  const lines: string[] = []
  if (state.held) lines.push(style.dim(state.held))
  if (state.partial) lines.push(state.partial)
  if (state.busy) lines.push(style.cyan(state.busy))
  lines.push(...state.question)
  const input = reason ?? widget
  const label = reason ? 'Reason (optional, Enter to send): ' : PROMPT
  const text = input.text.split('\n')
  const before = input.text.slice(0, input.cursor).split('\n')
  const cursor: RegionCursor = {column: (before.length === 1 ? label.length : MORE.length) + before.at(-1)!.length, line: lines.length + before.length - 1}
  lines.push(...text.map((line, index) => `${index === 0 ? style.bold(label) : MORE}${line}`))
  const command = widget.commandLine
  if (command !== undefined) {
    lines.push(command)
    cursor.line = lines.length - 1
    cursor.column = command.length
  }

  if (state.notice) lines.push(style.yellow(state.notice))
  const mode = widget.vimMode && widget.vimMode !== 'command' ? style.bold(`-- ${widget.vimMode.toUpperCase()} -- `) : ''
  lines.push(style.dim(`${mode}${state.status}`))
  region.draw(lines, cursor)
}
