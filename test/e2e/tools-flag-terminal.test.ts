import {describe, expect, it} from 'vitest'

import {CLI} from '../helpers/cli.js'
import {useChatTerminals} from '../helpers/terminal.js'

/** `chat --tools` in a real terminal (tmux): the model is offered that subset and nothing else. */
describe('chat --tools', () => {
  const chat = useChatTerminals('hanzo-chat-tools-')

  it('offers the model only the tools of the groups given', async () => {
    const model = chat.script('subset', [
      {
        expect: {
          last_user_contains: 'which tools',
          tools_exclude: ['exec', 'exec_output', 'web_fetch', 'todo_write'],
          tools_include: ['fs_read', 'fs_grep'],
        },
        text: 'Only the file tools.',
      },
    ])
    await chat.terminals.open('subset', `node ${CLI} chat --tools fs --fake-model ${model}`, {cwd: chat.project})
    await chat.terminals.waitFor('subset', '/help for commands')
    await chat.terminals.keys('subset', 'which tools do you have', 'Enter')
    await chat.terminals.waitFor('subset', 'Only the file tools.')
    await chat.terminals.keys('subset', 'C-d')
    expect(await chat.terminals.exitStatus('subset')).toBe(0)
  })
})
