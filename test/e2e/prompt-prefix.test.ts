import {execFileSync} from 'node:child_process'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {breakpoints, unmarked} from '../helpers/cache-breakpoints.js'
import {runCli, useSandboxDirs} from '../helpers/cli.js'
import {WIRE_FORMATS, writeFakeProviderSettings} from '../helpers/wire-formats.js'

/** Nine tool-call turns of every kind a session makes (a write changes git status), then an answer. */
function runTurns(run: number): Script['turns'] {
  const calls = [
    {arguments: {path: '.'}, name: 'fs_list'},
    {arguments: {content: `note ${run}\n`, path: `notes-${run}.txt`}, name: 'fs_write'},
    {arguments: {path: `notes-${run}.txt`}, name: 'fs_read'},
    {arguments: {command: `echo run ${run}`}, name: 'exec'},
    {arguments: {todos: [{content: `Step of run ${run}`, status: 'in_progress'}]}, name: 'todo_write'},
    {arguments: {path: '.', pattern: 'note'}, name: 'fs_grep'},
    {arguments: {pattern: '*.txt'}, name: 'fs_glob'},
    {arguments: {new_string: 'changed', old_string: 'note', path: `notes-${run}.txt`}, name: 'fs_edit'},
    {arguments: {path: 'missing.txt'}, name: 'fs_read'},
  ]
  return [
    ...calls.map((call, index) => ({text: `Turn ${index}.`, tool_calls: [{...call, id: `call_${run}_${index}`}]})),
    {text: `Run ${run} done.`},
  ]
}

/** Where each format keeps the conversation; the rest of the body (system, tools, options) must not change. */
const CONVERSATION: Record<string, string> = {
  anthropic_messages: 'messages',
  chat_completions: 'messages',
  responses: 'input',
}

describe('the prompt prefix stays put over a 20-turn session with tool calls', () => {
  const dirs = useSandboxDirs('hanzo-prefix-', 'project')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  it.each(WIRE_FORMATS)(
    '%s: earlier bytes are never re-sent differently, across run --continue too',
    async (api, name) => {
      execFileSync('git', ['init', '-q'], {cwd: dirs.project})
      model = await startFakeModel({turns: [...runTurns(1), ...runTurns(2)]})
      writeFakeProviderSettings(dirs.box.env.XDG_CONFIG_HOME, {api, model: name, url: model.url})
      const run = (args: string[]) =>
        runCli(['run', ...args, '--permission-mode', 'allow-all'], {cwd: dirs.project, env: dirs.box.env})
      const first = await run(['start the notes'])
      expect(first.exitCode, first.stderr).toBe(0)
      const second = await run(['--continue', 'go on'])
      expect(second.exitCode, second.stderr).toBe(0)

      const bodies = model.requests.map((request) => request.body as Record<string, unknown>)
      expect(bodies).toHaveLength(20)
      const key = CONVERSATION[api]!
      const rest = (body: Record<string, unknown>) => JSON.stringify(unmarked({...body, [key]: undefined}))
      const conversation = (body: Record<string, unknown>) =>
        (unmarked(body[key]) as unknown[]).map((item) => JSON.stringify(item))
      for (const [index, body] of bodies.entries()) {
        expect(rest(body), `request ${index + 1}: system, tools or options changed`).toBe(rest(bodies[0]!))
        if (index === 0) continue
        const earlier = conversation(bodies[index - 1]!)
        expect(
          conversation(body).slice(0, earlier.length),
          `request ${index + 1} re-sent earlier messages differently`,
        ).toEqual(earlier)
        expect(conversation(body).length).toBeGreaterThan(earlier.length)
      }

      if (api !== 'anthropic_messages') {
        expect(bodies.flatMap((body) => breakpoints(body))).toEqual([])
        return
      }

      for (const body of bodies) {
        const messages = body.messages as Array<{role: string; content: unknown[]}>
        const users = messages.flatMap((message, index) => (message.role === 'user' ? [index] : [])).slice(-2)
        const tools = body.tools as unknown[]
        expect(breakpoints(body)).toEqual([
          ...users.map((index) => `.messages[${index}].content[${messages[index]!.content.length - 1}]`),
          '.system[0]',
          `.tools[${tools.length - 1}]`,
        ])
      }
    },
  )

  it('a session carried on from another directory tells of the repository as it is now', async () => {
    execFileSync('git', ['init', '-q'], {cwd: dirs.project})
    model = await startFakeModel({turns: [{text: 'One.'}, {text: 'Two.'}]})
    writeFakeProviderSettings(dirs.box.env.XDG_CONFIG_HOME, {api: 'chat_completions', url: model.url})
    const first = await runCli(['run', 'one'], {cwd: dirs.project, env: dirs.box.env})
    expect(first.exitCode, first.stderr).toBe(0)
    mkdirSync(join(dirs.project, 'sub'))
    writeFileSync(join(dirs.project, 'sub', 'new.txt'), 'new\n')
    const second = await runCli(['run', '--continue', 'two'], {cwd: join(dirs.project, 'sub'), env: dirs.box.env})
    expect(second.exitCode, second.stderr).toBe(0)
    const system = (index: number) =>
      (model!.requests[index]!.body as {messages: Array<{content: string}>}).messages[0]!.content
    expect(system(0)).toContain('(clean)')
    expect(system(1)).toContain(`Working directory: ${join(dirs.project, 'sub')}`)
    expect(system(1)).toContain('?? sub/')
  })
})
