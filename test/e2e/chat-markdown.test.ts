import {describe, expect, it} from 'vitest'

import {CLI, runCli} from '../helpers/cli.js'
import {useChatTerminals} from '../helpers/terminal.js'

/** The chat's replies as a person sees them (markdown, wrapped, defused), and `/resume ID` in place, on a real terminal. */
describe('hanzo-dev chat: markdown answers and /resume', () => {
  const chat = useChatTerminals('hanzo-chat-md-')

  it('renders a streamed answer as markdown wrapped to the terminal, with the escape sequences it holds defused', async () => {
    const answer = [
      '# Plan',
      '',
      '| 名前 | n |',
      '|---|---|',
      '| ab | 1 |',
      '',
      '```ts',
      'const a = 1',
      '```',
      '',
      `${'word '.repeat(24)}end`,
      '\u001B]0;pwned\u0007done',
    ].join('\n')
    const model = chat.script('markdown', [{chunk_size: 7, text: answer}])
    await chat.terminals.open('md', `node ${CLI} chat --fake-model ${model} "show me"`, {cwd: chat.project, width: 60})
    const screen = await chat.terminals.waitFor('md', 'done')
    const reply = screen.slice(screen.indexOf('› show me') + 1, screen.findIndex((line) => line.endsWith('done')) + 1)
    expect(reply).toEqual([
      'Plan',
      '',
      '名前 │ n',
      '─────┼──',
      'ab   │ 1',
      '',
      'const a = 1',
      '',
      `${'word '.repeat(11)}word`,
      `${'word '.repeat(11)}word`,
      'end',
      '^[]0;pwned^Gdone',
    ])
    await chat.terminals.keys('md', 'C-d')
    expect(await chat.terminals.exitStatus('md')).toBe(0)
  })

  it('/resume ID carries another saved session on in place (its conversation shown, the next prompt recorded into it); /model ID switches the model', async () => {
    await chat.terminals.open(
      'first',
      `node ${CLI} chat --fake-model ${chat.script('first', [{text: 'Noted **apple**.'}])} "remember apple"`,
      {cwd: chat.project},
    )
    await chat.terminals.waitFor('first', 'Noted apple.')
    await chat.terminals.keys('first', 'C-d')
    expect(await chat.terminals.exitStatus('first')).toBe(0)
    const listed = await runCli(['sessions', 'list', '--json'], {cwd: chat.project, env: chat.box.env})
    const first = (JSON.parse(listed.stdout) as {sessions: {id: string; first_prompt: string}[]}).sessions.find(
      (s) => s.first_prompt === 'remember apple',
    )!

    await chat.terminals.open(
      'second',
      `node ${CLI} chat --fake-model ${chat.script('second', [{text: 'Hello.'}, {expect: {last_user_contains: 'what fruit'}, text: 'It was apple.'}])}`,
      {cwd: chat.project},
    )
    await chat.terminals.waitFor('second', '/help for commands')
    await chat.terminals.keys('second', '/resume nosuch', 'Enter')
    await chat.terminals.waitFor('second', '✗ ')
    await chat.terminals.keys('second', `/resume ${first.id.slice(0, 8)}`, 'Enter')
    const screen = await chat.terminals.waitFor('second', `Resumed session ${first.id}`)
    expect(screen.join('\n')).toContain('> remember apple')
    // The reopened session replays its model script from the start: its first turn answers.
    await chat.terminals.keys('second', 'what fruit?', 'Enter')
    await chat.terminals.waitFor('second', 'Hello.')
    // /model ID goes on with the same conversation on another model; the status line says which, and how big the context is.
    await chat.terminals.keys('second', '/model bigger-model', 'Enter')
    const switched = await chat.terminals.waitFor('second', 'Model: bigger-model.')
    expect(switched.findLast((line) => line.trim() !== '')).toMatch(
      /^bigger-model · context \d+ · \d+ in \/ \d+ out · prompt · sandbox: workspace · \/help$/,
    )
    await chat.terminals.keys('second', 'C-d')
    expect(await chat.terminals.exitStatus('second')).toBe(0)

    const shown = await runCli(['sessions', 'show', first.id], {cwd: chat.project, env: chat.box.env})
    expect(shown.stdout).toContain('remember apple')
    expect(shown.stdout).toContain('what fruit?')
  })
})
