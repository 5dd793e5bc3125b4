import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {CLI, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js'
import {Terminals} from '../helpers/terminal.js'

/** The chat's replies as a person sees them (markdown, wrapped, defused), and `/resume ID` in place, on a real terminal. */
describe('hanzo-dev chat: markdown answers and /resume', () => {
  let box: Sandbox
  let project: string
  let terminals: Terminals

  beforeAll(() => {
    box = makeSandbox('hanzo-chat-md-')
    project = join(box.home, 'project')
    mkdirSync(project)
    mkdirSync(join(box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'), JSON.stringify({sandbox: {mode: 'workspace'}}))
    terminals = Terminals.create(box.env)
  })
  afterAll(async () => {
    await terminals.close()
    box.cleanup()
  })

  const script = (name: string, turns: Script['turns']) => {
    const file = join(box.home, `${name}.json`)
    writeFileSync(file, JSON.stringify({model: 'fake-model', turns}))
    return file
  }

  it('renders a streamed answer as markdown wrapped to the terminal, with the escape sequences it holds defused', async () => {
    const answer = ['# Plan', '', '| 名前 | n |', '|---|---|', '| ab | 1 |', '', '```ts', 'const a = 1', '```', '', `${'word '.repeat(24)}end`, '\u001B]0;pwned\u0007done'].join('\n')
    const model = script('markdown', [{chunk_size: 7, text: answer}])
    await terminals.open('md', `node ${CLI} chat --fake-model ${model} "show me"`, {cwd: project, width: 60})
    const screen = await terminals.waitFor('md', 'done')
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
      '�]0;pwned�done',
    ])
    await terminals.keys('md', 'C-d')
    expect(await terminals.exitStatus('md')).toBe(0)
  })

  it('/resume ID carries another saved session on in place (its conversation shown, the next prompt recorded into it); /model ID switches the model', async () => {
    await terminals.open('first', `node ${CLI} chat --fake-model ${script('first', [{text: 'Noted **apple**.'}])} "remember apple"`, {cwd: project})
    await terminals.waitFor('first', 'Noted apple.')
    await terminals.keys('first', 'C-d')
    expect(await terminals.exitStatus('first')).toBe(0)
    const listed = await runCli(['sessions', 'list', '--json'], {cwd: project, env: box.env})
    const first = (JSON.parse(listed.stdout) as {sessions: {id: string; first_prompt: string}[]}).sessions.find((s) => s.first_prompt === 'remember apple')!

    await terminals.open('second', `node ${CLI} chat --fake-model ${script('second', [{text: 'Hello.'}, {expect: {last_user_contains: 'what fruit'}, text: 'It was apple.'}])}`, {cwd: project})
    await terminals.waitFor('second', '/help for commands')
    await terminals.keys('second', '/resume nosuch', 'Enter')
    await terminals.waitFor('second', '✗ ')
    await terminals.keys('second', `/resume ${first.id.slice(0, 8)}`, 'Enter')
    const screen = await terminals.waitFor('second', `Resumed session ${first.id}`)
    expect(screen.join('\n')).toContain('> remember apple')
    // The reopened session replays its model script from the start: its first turn answers.
    await terminals.keys('second', 'what fruit?', 'Enter')
    await terminals.waitFor('second', 'Hello.')
    // /model ID goes on with the same conversation on another model; the status line says which, and how big the context is.
    await terminals.keys('second', '/model bigger-model', 'Enter')
    const switched = await terminals.waitFor('second', 'Model: bigger-model.')
    expect(switched.findLast((line) => line.trim() !== '')).toMatch(/^bigger-model · context \d+ · \d+ in \/ \d+ out · prompt · sandbox: workspace · \/help$/)
    await terminals.keys('second', 'C-d')
    expect(await terminals.exitStatus('second')).toBe(0)

    const shown = await runCli(['sessions', 'show', first.id], {cwd: project, env: box.env})
    expect(shown.stdout).toContain('remember apple')
    expect(shown.stdout).toContain('what fruit?')
  })
})
