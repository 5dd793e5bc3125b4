import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {StdioClient} from '../helpers/app-server-client.js'
import {runCli, useSandboxDirs} from '../helpers/cli.js'

const FIRST = [
  {activeForm: 'Reading the code', content: 'Read the code', status: 'in_progress'},
  {content: 'Fix the bug', status: 'pending'},
]
const SECOND = [
  {content: 'Read the code', status: 'completed'},
  {activeForm: 'Fixing the bug', content: 'Fix the bug', status: 'in_progress'},
]

/** A model that writes its plan, then moves it on a step, then answers. */
export const PLAN_TASK: Script = {
  turns: [
    {expect: {tools_include: ['todo_write']}, tool_calls: [{arguments: {todos: FIRST}, name: 'todo_write'}]},
    {
      expect: {tool_result_contains: 'The plan is updated: 0 of 2 done.'},
      tool_calls: [{arguments: {todos: SECOND}, name: 'todo_write'}],
    },
    {expect: {tool_result_contains: '1 of 2 done'}, text: 'On it.'},
  ],
}

describe('todo_write in run and the saved session', () => {
  const dirs = useSandboxDirs('hanzo-todo-', 'project')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  const cli = (args: string[]) => runCli(args, {cwd: dirs.project, env: dirs.box.env})

  it('prints each change of the plan under its call, without asking (the default permissions allow it)', async () => {
    model = await startFakeModel(PLAN_TASK)
    const result = await cli(['run', 'fix the bug', '--base-url', model.url])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('On it.')
    expect(result.stderr).toContain(
      '⏺ todo_write 0 of 2 done\n    ◐ Reading the code\n    ☐ Fix the bug\n⏺ todo_write 1 of 2 done\n    ☑ Read the code\n    ◐ Fixing the bug',
    )
  })

  it('streams the plan as todo_list events, and saves it with the session for sessions show', async () => {
    model = await startFakeModel(PLAN_TASK)
    const result = await cli(['run', 'fix the bug', '--base-url', model.url, '--output-format', 'stream-json'])
    expect(result.exitCode, result.stderr).toBe(0)
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(events.filter((event) => event.type === 'todo_list')).toEqual([
      {todos: FIRST, type: 'todo_list'},
      {todos: SECOND, type: 'todo_list'},
    ])
    // After the call's result: the plan is what the call left.
    const types = events.map((event) => event.type)
    expect(types.indexOf('todo_list')).toBe(types.indexOf('tool_result') + 1)

    const id = events.find((event) => event.type === 'result').session_id
    const shown = JSON.parse((await cli(['sessions', 'show', id, '--json'])).stdout)
    const saved = shown.transcript.filter((line: {type: string}) => line.type === 'todos')
    expect(saved.map((line: {todos: unknown}) => line.todos)).toEqual([FIRST, SECOND])
    const text = (await cli(['sessions', 'show', id])).stdout
    expect(text).toContain('── the plan: 1 of 2 done\n  ☑ Read the code\n  ◐ Fixing the bug')
  })

  it('run --continue tells the plan the session left before it goes on: on stderr, and as a todo_list after init', async () => {
    model = await startFakeModel(PLAN_TASK)
    expect((await cli(['run', 'fix the bug', '--base-url', model.url])).exitCode).toBe(0)
    await model.close()
    model = await startFakeModel({turns: [{text: 'Going on.'}, {text: 'Still going.'}]})

    const text = await cli(['run', '--continue', 'go on', '--base-url', model.url])
    expect(text.exitCode, text.stderr).toBe(0)
    expect(text.stderr).toContain('The plan so far: 1 of 2 done\n  ☑ Read the code\n  ◐ Fixing the bug')
    const streamed = await cli([
      'run',
      '--continue',
      'go on',
      '--base-url',
      model.url,
      '--output-format',
      'stream-json',
    ])
    expect(streamed.exitCode, streamed.stderr).toBe(0)
    const [init, plan] = streamed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(init).toMatchObject({subtype: 'init', type: 'system'})
    expect(plan).toEqual({todos: SECOND, type: 'todo_list'})
  })

  it('refuses a plan with two steps in progress: the model reads why, nothing is printed as a plan', async () => {
    const both = FIRST.map((todo) => ({...todo, status: 'in_progress'}))
    model = await startFakeModel({
      turns: [
        {tool_calls: [{arguments: {todos: both}, name: 'todo_write'}]},
        {expect: {tool_result_contains: '2 steps are in_progress'}, text: 'Fixed the plan.'},
      ],
    })
    const result = await cli(['run', 'fix the bug', '--base-url', model.url, '--output-format', 'stream-json'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).not.toContain('"todo_list"')
    expect(result.stdout).toContain('2 steps are in_progress: mark only the one being worked on')
  })

  it('sends the app server a todo_list item after each todo_write call', async () => {
    const script = join(dirs.box.home, 'plan.json')
    writeFileSync(script, JSON.stringify({model: 'fake-model', ...PLAN_TASK}))
    const client = new StdioClient(['--fake-model', script], {cwd: dirs.project, env: dirs.box.env})
    await client.request('initialize', {clientInfo: {name: 'test'}})
    const {sessionId} = (await client.request('session/start', {cwd: dirs.project, model: 'fake-model'})).result
    const {turnId} = (await client.request('turn/start', {input: 'fix the bug', sessionId})).result
    await client.next('turn/completed', (p) => p.turnId === turnId)
    const plans = client.all('item/completed', (p) => p.turnId === turnId && p.item.type === 'todo_list')
    expect(plans.map((m) => m.params.item)).toEqual([
      {id: expect.any(String), todos: FIRST, type: 'todo_list'},
      {id: expect.any(String), todos: SECOND, type: 'todo_list'},
    ])
    const call = client.all('item/completed', (p) => p.turnId === turnId && p.item.type === 'tool_call')[0]
    expect(call.params.item).toMatchObject({kind: 'think', name: 'todo_write', title: '0 of 2 done'})
    await client.close()
  })
})
