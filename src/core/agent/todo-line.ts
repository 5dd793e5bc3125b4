import type {TodoItem} from '@hanzo-dev/sdk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

/** Characters of a step shown on its line. */
const MAX_STEP_LENGTH = 200

const GLYPHS: Record<TodoItem['status'], string> = {completed: '☑', in_progress: '◐', pending: '☐'}

/**
 * One step of the plan (todo_write) as the user reads it: ☐ pending, ◐ in progress (as it reads
 * while being done), ☑ done. The model wrote it: shown on one line, defused.
 */
export function todoLine({activeForm, content, status}: TodoItem): string {
  return `${GLYPHS[status]} ${oneLine(status === 'in_progress' ? (activeForm ?? content) : content, MAX_STEP_LENGTH)}`
}

/** `2 of 5 done` */
export function todoProgress(todos: readonly TodoItem[]): string {
  return `${todos.filter((todo) => todo.status === 'completed').length} of ${todos.length} done`
}
