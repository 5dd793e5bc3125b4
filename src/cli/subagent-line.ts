import type {ChalkInstance} from 'chalk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import type {SubagentProgress} from '../adapters/tools/subagents.js'

const STATUS = {completed: 'done', failed: 'failed', running: ''} as const

/** A `task` child folded into one line: its type, the model's description of it, its tool uses so far and how it ended. */
export function subagentLine(progress: SubagentProgress, style: ChalkInstance): string {
  const uses = `${progress.toolUses} tool use${progress.toolUses === 1 ? '' : 's'}`
  const status = STATUS[progress.status]
  const text = `⎿ task ${oneLine(progress.type, 40)}: ${oneLine(progress.description, 80)} · ${uses}`
  if (progress.status === 'running') return style.dim(text)
  return `${style.dim(text)} · ${progress.status === 'failed' ? style.red(status) : style.green(status)}`
}
