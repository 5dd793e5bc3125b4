import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {StdioClient} from '../helpers/app-server-client.js'
import {runCli, useSandboxDirs} from '../helpers/cli.js'

const task = (prompt: string, extra: Record<string, unknown> = {}) => ({
  arguments: {description: `look into ${prompt}`, prompt, ...extra},
  name: 'task',
})

/** The chat-completions messages of a request the fake model received. */
const messages = (request: {body: unknown}) =>
  (request.body as {messages: Array<{role: string; content: unknown}>}).messages

describe('the task tool: subagents the model calls', () => {
  const dirs = useSandboxDirs('hanzo-task-', 'project')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  const run = async (script: Script, ...args: string[]) => {
    model = await startFakeModel(script)
    return runCli(['run', 'find the config loader', '--base-url', model.url, ...args], {
      cwd: dirs.project,
      env: dirs.box.env,
    })
  }

  it('runs an explore child with read-only tools and gives the parent its answer and what it did', async () => {
    writeFileSync(join(dirs.project, 'config.ts'), 'export const loader = 1\n')
    const result = await run({
      turns: [
        {tool_calls: [task('where the loader is', {subagent_type: 'explore'})]},
        {
          expect: {
            system_contains: 'You are a subagent',
            tools_exclude: ['task', 'fs_write', 'exec'],
            tools_include: ['fs_read', 'fs_grep'],
          },
          tool_calls: [{arguments: {pattern: 'loader'}, name: 'fs_grep'}],
        },
        {expect: {has_tool_result_for: 'fs_grep'}, text: 'The loader is in config.ts:1.'},
        {
          expect: {tool_result_contains: 'The loader is in config.ts:1.\n\n[explore subagent: 1 tool use (fs_grep).]'},
          text: 'It is in config.ts.',
        },
      ],
    })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('It is in config.ts.')
    // Its call's line when it starts, its own line when it ends.
    expect(result.stderr).toContain('⏺ task explore: look into where the loader is')
    expect(result.stderr).toContain('⎿ task explore: look into where the loader is · 1 tool use · done')

    // The child's requests are the session's, each counted as a subagent's.
    const cli = (...args: string[]) => runCli(args, {cwd: dirs.project, env: dirs.box.env})
    const [session] = (JSON.parse((await cli('sessions', 'list', '--json')).stdout) as {sessions: Array<{id: string}>})
      .sessions
    const shown = JSON.parse((await cli('sessions', 'show', session.id, '--json')).stdout) as {
      usage: {by_turn: Array<{kind?: string}>}
    }
    expect(shown.usage.by_turn.map((request) => request.kind ?? 'turn')).toEqual([
      'turn',
      'subagent',
      'subagent',
      'turn',
    ])
  })

  it('runs two children of one turn side by side: both first requests arrive before either answers', async () => {
    const result = await run({
      turns: [
        {tool_calls: [task('part one'), task('part two')]},
        {tool_calls: [{arguments: {path: '.'}, name: 'fs_list'}]},
        {tool_calls: [{arguments: {path: '.'}, name: 'fs_list'}]},
        {expect: {has_tool_result_for: 'fs_list'}, text: 'first answer'},
        {expect: {has_tool_result_for: 'fs_list'}, text: 'second answer'},
        {expect: {tool_result_contains: 'first answer'}, text: 'Both done.'},
      ],
    })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('Both done.')
    const requests = model!.requests.filter((request) => request.path === '/v1/chat/completions')
    // Run one after the other, the second request would be the first child's next (with its fs_list result).
    const firsts = requests.slice(1, 3).map((request) => messages(request).map((message) => message.role))
    expect(firsts).toEqual([
      ['system', 'user'],
      ['system', 'user'],
    ])
    expect(new Set(requests.slice(1, 3).map((request) => messages(request)[1].content))).toEqual(
      new Set(['part one', 'part two']),
    )
    const parent = JSON.stringify(messages(requests[5]))
    expect(parent).toContain('first answer')
    expect(parent).toContain('second answer')
    expect(result.stderr).toContain('⎿ task general: look into part one · 1 tool use · done')
    expect(result.stderr).toContain('⎿ task general: look into part two · 1 tool use · done')
  })

  it("refuses a child the tool its parent's rules deny, and never offers a child the task tool", async () => {
    mkdirSync(join(dirs.project, '.hanzo'))
    writeFileSync(join(dirs.project, '.hanzo', 'settings.json'), JSON.stringify({permissions: {exec: 'deny'}}))
    const result = await run({
      turns: [
        {tool_calls: [task('run the tests')]},
        {
          expect: {tools_exclude: ['task'], tools_include: ['exec', 'fs_write']},
          tool_calls: [{arguments: {command: 'touch ran.txt'}, name: 'exec'}, task('nested')],
        },
        {
          expect: {tool_result_contains: 'Permission denied for exec'},
          text: 'exec is denied here',
        },
        {
          expect: {tool_result_contains: 'exec is denied here'},
          text: 'The tests cannot run.',
        },
      ],
    })
    expect(result.exitCode, result.stderr).toBe(0)
    const requests = model!.requests
    const child = JSON.stringify(messages(requests[2]))
    expect(child).toContain("task is not one of this session's tools")
    expect(result.stdout).toBe('The tests cannot run.')
  })

  it("shows the app server each child's start and end as its task call's item, the answer in its result", async () => {
    const script = join(dirs.box.home, 'task.json')
    const turns = [
      {tool_calls: [task('the loader', {subagent_type: 'explore'})]},
      {expect: {system_contains: 'You are a subagent'}, text: 'In config.ts.'},
      {expect: {tool_result_contains: 'In config.ts.'}, text: 'Found it.'},
    ]
    writeFileSync(script, JSON.stringify({model: 'fake-model', turns}))
    const client = new StdioClient(['--fake-model', script], {cwd: dirs.project, env: dirs.box.env})
    await client.request('initialize', {clientInfo: {name: 'test'}})
    const {sessionId} = (await client.request('session/start', {cwd: dirs.project, model: 'fake-model'})).result
    const {turnId} = (await client.request('turn/start', {input: 'find the loader', sessionId})).result
    await client.next('turn/completed', (p) => p.turnId === turnId)
    const item = (method: 'item/started' | 'item/completed') =>
      client.all(method, (p) => p.turnId === turnId && p.item.type === 'tool_call').map((m) => m.params.item)
    expect(item('item/started')).toEqual([
      expect.objectContaining({name: 'task', title: 'explore: look into the loader'}),
    ])
    const [completed] = item('item/completed')
    expect(completed).toMatchObject({name: 'task', title: 'explore: look into the loader'})
    expect(JSON.stringify(completed)).toContain('In config.ts.')
    await client.close()
  })

  it("offers the project's agents from .hanzo/agents only once the project is trusted", async () => {
    mkdirSync(join(dirs.project, '.hanzo', 'agents'), {recursive: true})
    writeFileSync(
      join(dirs.project, '.hanzo', 'agents', 'reviewer.md'),
      '---\ndescription: Reviews a change for bugs\ntools: fs_read, fs_grep\n---\nYou review changes.\n',
    )
    const taskDescription = () => {
      const tools = (model!.requests[0].body as {tools: Array<{function: {name: string; description: string}}>}).tools
      return tools.find((tool) => tool.function.name === 'task')!.function.description
    }

    const untrusted = await run({turns: [{text: 'no agents'}]})
    expect(untrusted.exitCode, untrusted.stderr).toBe(0)
    expect(taskDescription()).not.toContain('reviewer')
    await model!.close()

    expect(await runCli(['trust', '--yes'], {cwd: dirs.project, env: dirs.box.env})).toMatchObject({exitCode: 0})
    const trusted = await run({
      turns: [
        {tool_calls: [task('the diff', {subagent_type: 'reviewer'})]},
        {
          expect: {system_contains: 'You review changes.', tools_exclude: ['fs_write', 'exec', 'task']},
          text: 'Looks right.',
        },
        {expect: {tool_result_contains: 'Looks right.'}, text: 'Reviewed.'},
      ],
    })
    expect(trusted.exitCode, trusted.stderr).toBe(0)
    expect(taskDescription()).toContain('- reviewer: Reviews a change for bugs')
    expect(trusted.stdout).toBe('Reviewed.')
  })
})
