import type {TodoItem} from '@hanzo-dev/sdk'
import type {ChalkInstance} from 'chalk'

import {todoLine, todoProgress} from '../core/agent/todo-line.js'

/** The plan as printed on a terminal, a line per step: the one in progress in bold, the done ones dimmed. */
export function todoLines(todos: readonly TodoItem[], style: ChalkInstance, indent = '  '): string[] {
  if (todos.length === 0) return [style.dim(`${indent}(the plan is empty)`)]
  return todos.map((todo) => {
    const line = `${indent}${todoLine(todo)}`
    return todo.status === 'completed' ? style.dim(line) : todo.status === 'in_progress' ? style.bold(line) : line
  })
}

/** The plan a continued session left, as it is shown before the session goes on (`--continue`). */
export function planSoFar(todos: readonly TodoItem[], style: ChalkInstance): string {
  return [style.bold(`The plan so far: ${todoProgress(todos)}`), ...todoLines(todos, style)].join('\n')
}
