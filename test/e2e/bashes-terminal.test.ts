import {describe, expect, it} from 'vitest'

import {CLI} from '../helpers/cli.js'
import {processesWith} from '../helpers/processes.js'
import {useChatTerminals} from '../helpers/terminal.js'

/** `/bashes` in a real terminal (tmux): what the model runs in the background, listed and killed. */
describe('/bashes in the chat', () => {
  const chat = useChatTerminals('hanzo-bashes-')

  it('lists the background commands with their state and kills one with everything it started', async () => {
    const marker = `bashes-marker-${process.pid}`
    const model = chat.script('bashes', [
      {tool_calls: [{arguments: {background: true, command: `sleep 1000 # ${marker}`}, name: 'exec'}]},
      {text: 'Started.'},
    ])
    await chat.terminals.open('bashes', `node ${CLI} chat --permission-mode allow-all --fake-model ${model}`, {
      cwd: chat.project,
      width: 100,
    })
    await chat.terminals.waitFor('bashes', '/help for commands')
    await chat.terminals.keys('bashes', '/bashes', 'Enter')
    await chat.terminals.waitFor('bashes', 'No background commands in this session.')
    await chat.terminals.keys('bashes', 'start it', 'Enter')
    await chat.terminals.waitFor('bashes', 'Started.')
    await chat.terminals.keys('bashes', '/bashes', 'Enter')
    await chat.terminals.waitFor('bashes', `  bg1  running  sleep 1000 # ${marker}`)
    expect(processesWith(marker)).not.toEqual([])

    await chat.terminals.keys('bashes', '/bashes kill bg9', 'Enter')
    await chat.terminals.waitFor('bashes', 'There is no background command bg9: /bashes lists them')
    await chat.terminals.keys('bashes', '/bashes kill bg1', 'Enter')
    await chat.terminals.waitFor('bashes', 'bg1 ended: killed by SIG')
    expect(processesWith(marker)).toEqual([])
    await chat.terminals.keys('bashes', '/bashes', 'Enter')
    const screen = await chat.terminals.waitFor('bashes', '  bg1  killed by SIG')
    expect(screen.find((line) => line.startsWith('  bg1  killed'))).toMatch(
      /^ {2}bg1 {2}killed by SIG(TERM|KILL) {2}sleep 1000 # bashes-marker-/,
    )
    await chat.terminals.keys('bashes', 'C-d')
    expect(await chat.terminals.exitStatus('bashes')).toBe(0)
  })
})
