import {describe, expect, it} from 'vitest'

import {CLI} from '../helpers/cli.js'
import {useChatTerminals} from '../helpers/terminal.js'

/** A subagent (the task tool) as a chat user sees it, in a real terminal (tmux). */
describe('subagents in the chat', () => {
  const chat = useChatTerminals('hanzo-chat-task-')

  it("folds the child into one line that counts its tool uses, asks the child's questions, then prints how it ended", async () => {
    const model = chat.script('task', [
      {
        expect: {last_user_contains: 'look around'},
        tool_calls: [{arguments: {description: 'list the files', prompt: 'List the files.'}, name: 'task'}],
      },
      {expect: {last_user_contains: 'List the files.'}, tool_calls: [{arguments: {path: '.'}, name: 'fs_list'}]},
      {expect: {has_tool_result_for: 'fs_list'}, tool_calls: [{arguments: {command: 'ls'}, name: 'exec'}]},
      {expect: {has_tool_result_for: 'exec'}, text: 'No files.'},
      {expect: {tool_result_contains: 'No files.'}, text: 'The child found nothing.'},
    ])
    await chat.terminals.open('task', `node ${CLI} chat --fake-model ${model}`, {cwd: chat.project, height: 40})
    await chat.terminals.waitFor('task', '/help for commands')
    await chat.terminals.keys('task', 'look around', 'Enter')

    // The child's exec asks through the parent's gate; its line under the turn has counted the fs_list.
    const screen = (await chat.terminals.waitFor('task', 'Allow exec: ls?')).join('\n')
    expect(screen).toContain('⏺ task general: list the files')
    expect(screen).toContain('⎿ task general: list the files · 1 tool use')

    await chat.terminals.keys('task', 'y')
    const after = (await chat.terminals.waitFor('task', 'The child found nothing.')).join('\n')
    expect(after).toContain('⎿ task general: list the files · 2 tool uses · done')
    await chat.terminals.keys('task', 'C-d')
    expect(await chat.terminals.exitStatus('task')).toBe(0)
  })
})
