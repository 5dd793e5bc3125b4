import {describe, expect, it} from 'vitest'

import {CLI, runCli} from '../helpers/cli.js'
import {waitUntil} from '../helpers/processes.js'
import {useChatTerminals} from '../helpers/terminal.js'

/** The plan (todo_write) as a chat user sees it, in a real terminal (tmux). */
describe('the plan in the chat', () => {
  const chat = useChatTerminals('hanzo-chat-todo-')
  const count = (screen: string[], text: string) => screen.filter((line) => line.includes(text)).length

  it('prints each change above the prompt and shows the plan under the turn while it runs', async () => {
    const todos = [
      {activeForm: 'Listing the files', content: 'List the files', status: 'in_progress'},
      {content: 'Sum them up', status: 'pending'},
    ]
    const model = chat.script('plan', [
      {expect: {last_user_contains: 'look around'}, tool_calls: [{arguments: {todos}, name: 'todo_write'}]},
      {expect: {has_tool_result_for: 'todo_write'}, tool_calls: [{arguments: {command: 'ls'}, name: 'exec'}]},
      {expect: {has_tool_result_for: 'exec'}, text: 'Nothing to list.'},
    ])
    await chat.terminals.open('plan', `node ${CLI} chat --fake-model ${model}`, {cwd: chat.project, height: 40})
    await chat.terminals.waitFor('plan', '/help for commands')
    await chat.terminals.keys('plan', 'look around', 'Enter')

    // The turn waits on the question: the plan is printed with its call, and shown again under the turn.
    const screen = await chat.terminals.waitFor('plan', 'Allow exec: ls?')
    expect(screen.join('\n')).toContain('⏺ todo_write 0 of 2 done\n    ◐ Listing the files\n    ☐ Sum them up')
    const live = screen.slice(screen.findIndex((line) => line.startsWith('⏺ exec')))
    expect(live.join('\n')).toContain('  ◐ Listing the files\n  ☐ Sum them up')
    expect(count(screen, '◐ Listing the files')).toBe(2)

    // Denied, the model answers, the turn ends: the plan stays printed once, the live one is gone.
    await chat.terminals.keys('plan', 'n')
    await chat.terminals.waitFor('plan', 'Reason (optional')
    await chat.terminals.keys('plan', 'Enter')
    await chat.terminals.waitFor('plan', 'Nothing to list.')
    await waitUntil(
      async () => count(await chat.terminals.screen('plan'), '◐ Listing the files') === 1,
      'the plan is shown once when the turn is over',
    )
    await chat.terminals.keys('plan', 'C-d')
    expect(await chat.terminals.exitStatus('plan')).toBe(0)
  })

  it('--continue shows the plan the session left under its conversation, and under the next turn while it runs', async () => {
    const plan = [
      {content: 'Read the code', status: 'completed'},
      {activeForm: 'Fixing the bug', content: 'Fix the bug', status: 'in_progress'},
    ]
    const first = chat.script('first', [
      {tool_calls: [{arguments: {todos: plan}, name: 'todo_write'}]},
      {expect: {has_tool_result_for: 'todo_write'}, text: 'Half way.'},
    ])
    const ran = await runCli(['run', 'fix the bug', '--fake-model', first], {cwd: chat.project, env: chat.box.env})
    expect(ran.exitCode, ran.stderr).toBe(0)

    const next = chat.script('next', [
      {expect: {last_user_contains: 'go on'}, tool_calls: [{arguments: {command: 'ls'}, name: 'exec'}]},
      {expect: {has_tool_result_for: 'exec'}, text: 'Stopped.'},
    ])
    await chat.terminals.open('resumed', `node ${CLI} chat --continue --fake-model ${next}`, {
      cwd: chat.project,
      height: 50,
    })
    const resumed = (await chat.terminals.waitFor('resumed', 'The plan so far: 1 of 2 done')).join('\n')
    expect(resumed).toContain('Half way.')
    // After the conversation so far, the plan as it was left, right above the prompt.
    const shown = resumed.slice(resumed.indexOf('The plan so far'))
    expect(shown).toMatch(/^The plan so far: 1 of 2 done\n {2}☑ Read the code\n {2}◐ Fixing the bug\n/)
    expect(resumed.indexOf('Half way.')).toBeLessThan(resumed.indexOf('The plan so far'))

    await chat.terminals.keys('resumed', 'go on', 'Enter')
    const screen = await chat.terminals.waitFor('resumed', 'Allow exec: ls?')
    const live = screen.slice(screen.findIndex((line) => line.startsWith('⏺ exec')))
    expect(live.join('\n')).toContain('  ☑ Read the code\n  ◐ Fixing the bug')
    await chat.terminals.keys('resumed', 'n')
    await chat.terminals.waitFor('resumed', 'Reason (optional')
    await chat.terminals.keys('resumed', 'Enter')
    await chat.terminals.waitFor('resumed', 'Stopped.')
    await chat.terminals.keys('resumed', 'C-d')
    expect(await chat.terminals.exitStatus('resumed')).toBe(0)
  })
})
