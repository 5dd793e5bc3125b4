import {type TodoItem, type ToolDefinition, toolError, toolOk} from '@hanzo-dev/sdk'

import {todoProgress} from '../../core/agent/todo-line.js'
import {objectSchema} from './input-schema.js'

export type TodoWriteInput = {todos: TodoItem[]}

/** Steps one list may hold: a plan longer than this is better split into stages. */
export const TODO_MAX_ITEMS = 50

/** Characters of one step: a step is a line the user reads, not a document. */
export const TODO_MAX_CONTENT = 300

const text = (description: string) => ({description, maxLength: TODO_MAX_CONTENT, type: 'string'})

/**
 * The plan the user sees: the model sends the whole list each time, the host shows it (live in
 * the chat, printed by `run`, a `todo_list` item for the app server) and saves it with the
 * session. It changes nothing outside the conversation, so it runs without asking.
 */
export const todoWrite: ToolDefinition<TodoWriteInput> = {
  name: 'todo_write',
  aliases: ['TodoWrite'],
  description: [
    'Keep the plan of the current task as a list of steps the user sees: send the whole list each time (it replaces the last one).',
    'Use it for work of three steps or more: write the steps before starting, mark a step in_progress when you start it (one at a time) and completed as soon as it is done, add steps you discover.',
    `At most ${TODO_MAX_ITEMS} steps; skip it for a single, simple step.`,
  ].join(' '),
  inputSchema: objectSchema(
    {
      todos: {
        description: 'The whole list, in order.',
        items: objectSchema(
          {
            activeForm: text('The step as it reads while being done ("Running the tests").'),
            content: text('The step, imperative ("Run the tests").'),
            status: {enum: ['pending', 'in_progress', 'completed'], type: 'string'},
          },
          ['content', 'status'],
        ),
        maxItems: TODO_MAX_ITEMS,
        type: 'array',
      },
    },
    ['todos'],
  ),
  mutating: false,
  kind: 'think',
  describe: ({todos}) => todoProgress(todos),
  async execute({todos}) {
    const blank = todos.findIndex((todo) => todo.content.trim() === '')
    if (blank !== -1) return toolError(`Step ${blank + 1} has no content: give every step its text`)
    const active = todos.filter((todo) => todo.status === 'in_progress').length
    if (active > 1)
      return toolError(`${active} steps are in_progress: mark only the one being worked on, the others pending`)
    const list = todos.map(({activeForm, content, status}) => ({
      content: content.trim(),
      status,
      ...(activeForm?.trim() ? {activeForm: activeForm.trim()} : {}),
    }))
    return toolOk(`The plan is updated: ${todoProgress(list)}.`, {kind: 'todo', todos: list})
  },
}
