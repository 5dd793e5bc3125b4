import {describe, expect, it} from 'vitest'

import {TODO_MAX_ITEMS, todoWrite} from '../../../src/adapters/tools/todo-write.js'
import {validateToolInput} from '../../../src/core/tools/input-validation.js'
import {run} from './tool-harness.js'

const step = (content: string, status: 'pending' | 'in_progress' | 'completed' = 'pending') => ({content, status})

describe('todo_write', () => {
  it('keeps the whole list, trimmed, and says how far the plan is', async () => {
    const result = await run(
      todoWrite,
      {
        todos: [
          step('Read the code', 'completed'),
          {activeForm: ' Running the tests ', content: 'Run the tests ', status: 'in_progress'},
          {activeForm: '  ', content: 'Fix what fails', status: 'pending'},
        ],
      },
      '/',
    )
    expect(result).toMatchObject({is_error: false, output: 'The plan is updated: 1 of 3 done.'})
    expect(result.details).toEqual({
      kind: 'todo',
      todos: [
        step('Read the code', 'completed'),
        {activeForm: 'Running the tests', content: 'Run the tests', status: 'in_progress'},
        step('Fix what fails'),
      ],
    })
    expect(todoWrite.describe!({todos: [step('a', 'completed'), step('b')]})).toBe('1 of 2 done')
    expect(todoWrite).toMatchObject({kind: 'think', mutating: false})
  })

  it('refuses two steps in progress and a step without text, as errors the model reads', async () => {
    const two = await run(todoWrite, {todos: [step('a', 'in_progress'), step('b', 'in_progress')]}, '/')
    expect(two).toMatchObject({
      error: expect.stringMatching(/^2 steps are in_progress: mark only the one/),
      is_error: true,
    })
    const blank = await run(todoWrite, {todos: [step('a'), step(' \n ')]}, '/')
    expect(blank).toMatchObject({error: 'Step 2 has no content: give every step its text', is_error: true})
    expect(await run(todoWrite, {todos: []}, '/')).toMatchObject({details: {kind: 'todo', todos: []}, is_error: false})
  })

  it(`validates the shape: a known status, at most ${TODO_MAX_ITEMS} steps, no other property`, async () => {
    const {inputSchema} = todoWrite
    expect(await validateToolInput(inputSchema, {todos: [step('a', 'done' as 'completed')]})).toMatch(
      /"todos.0.status" must be equal to one of the allowed values/,
    )
    const many = Array.from({length: TODO_MAX_ITEMS + 1}, (_, i) => step(`step ${i}`))
    expect(await validateToolInput(inputSchema, {todos: many})).toMatch(/"todos" must NOT have more than 50 items/)
    expect(await validateToolInput(inputSchema, {todos: [{...step('a'), priority: 'high'}]})).toMatch(
      /unknown property "priority"/,
    )
    expect(await validateToolInput(inputSchema, {})).toMatch(/missing the required property "todos"/)
  })
})
