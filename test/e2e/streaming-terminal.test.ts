import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import stringWidth from 'string-width'
import {describe, expect, it} from 'vitest'

import {CLI} from '../helpers/cli.js'
import {waitUntil} from '../helpers/processes.js'
import {beforeRunEndLine, useChatTerminals} from '../helpers/terminal.js'

/** What a user sees while the model streams or hangs, a warning arrives, the window is resized, at 40 and 120 columns (tmux). */
describe('streaming you can see, on a terminal', () => {
  const chat = useChatTerminals('hanzo-stream-')
  const {script} = chat
  const run = (model: string, flags = '') => `node ${CLI} run 'go' ${flags} --fake-model ${model}`.trim()

  /** Waits until the screen, as the terminal shows it at that moment, satisfies `holds`; that screen. */
  const waitForScreen = async (name: string, what: string, holds: (screen: string) => boolean) => {
    let screen = ''
    await waitUntil(async () => holds((screen = (await chat.terminals.screen(name)).join('\n'))), what).catch(
      (error: Error) => {
        throw new Error(`${error.message}; the screen:\n${screen}`)
      },
    )
    return screen
  }

  const LONG = `The answer begins here and ${'goes on streaming word after word '.repeat(5)}until THE-END.`

  for (const width of [40, 120]) {
    it(`run shows a long line while it streams, before it ends, at ${width} columns`, async () => {
      const model = script(`long-${width}`, [{chunk_size: 12, delay_ms: 150, text: `${LONG}\nSecond **line**.`}])
      const name = `long-${width}`
      await chat.terminals.open(name, run(model), {cwd: chat.project, width})
      await waitForScreen(
        name,
        'the start of the line is shown before its end arrives',
        (screen) => screen.includes('The answer begins here') && !screen.includes('THE-END'),
      )
      expect(await chat.terminals.exitStatus(name)).toBe(0)
      // Then the whole line, once, as the terminal wraps it, and the next one rendered.
      expect(beforeRunEndLine(await chat.terminals.screen(name))).toEqual([LONG, 'Second line.'])
    })
  }

  it('run counts the seconds while the server does not answer; Ctrl-C still cancels', async () => {
    const model = script('hung', [{delay_ms: 20_000, text: 'too late'}])
    await chat.terminals.open('hung', run(model), {cwd: chat.project, width: 40})
    await waitForScreen('hung', 'the spinner counts past 0 seconds', (screen) =>
      /Thinking… [1-9]\d*s \(Ctrl-C to cancel\)/.test(screen),
    )
    await chat.terminals.keys('hung', 'C-c')
    expect(await chat.terminals.exitStatus('hung')).toBe(130)
    expect(await chat.terminals.screen('hung')).toEqual(['Cancelled'])
  })

  for (const width of [40, 120]) {
    it(`a plugin's warning during a chat turn goes above the prompt, which stays whole, at ${width} columns`, async () => {
      // A language server that is not there: the LSP plugin warns when the turn writes a Go file.
      writeFileSync(
        join(chat.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
        JSON.stringify({lsp: {servers: {go: {command: 'no-such-go-server'}}}, sandbox: {mode: 'workspace'}}),
      )
      const model = script(`warn-${width}`, [
        {text: 'Writing.', tool_calls: [{arguments: {content: 'package main\n', path: 'main.go'}, name: 'fs_write'}]},
        {delay_ms: 200, text: 'Wrote main.go.'},
      ])
      const name = `warn-${width}`
      const command = `node ${CLI} chat --permission-mode allow-all --fake-model ${model}`
      await chat.terminals.open(name, command, {cwd: chat.project, width})
      // The banner wraps between words too: no word is cut at 40 columns.
      await chat.terminals.waitFor(name, '/help for commands')
      expect((await chat.terminals.rows(name)).rows.some((row) => row.includes('Ctrl-C twice exits'))).toBe(true)
      await chat.terminals.keys(name, 'write main.go', 'Enter')
      const screen = (await chat.terminals.waitFor(name, 'Wrote main.go.')).filter((line) => line !== '')
      // Wrapped between words by the chat (at 40 columns, over several lines), once, under the call that caused it.
      const warning = screen.findIndex((line) => line.startsWith('Warning: lsp: Go: no-such-go-server'))
      expect(warning, screen.join('\n')).toBeGreaterThan(screen.indexOf('⏺ fs_write main.go'))
      expect(screen.filter((line) => line.includes('Warning:'))).toHaveLength(1)
      expect(screen.join(' ')).toContain('not found on PATH')
      expect(screen.slice(-2)[0]).toBe('›')
      expect(screen.at(-1)).toMatch(/^fake-model · /)
      // No spinner row was left behind in the scrollback.
      expect(screen.join('\n')).not.toMatch(/Thinking…|Running fs_write…/)
      await chat.terminals.keys(name, 'C-d')
      expect(await chat.terminals.exitStatus(name)).toBe(0)
      writeFileSync(
        join(chat.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
        JSON.stringify({sandbox: {mode: 'workspace'}}),
      )
    })
  }

  it('a resized window shows the permission question once, its diff wrapped under the +/- gutter at 40 columns', async () => {
    const content = `short line\n${'a long line of the new file that does not fit forty columns '.repeat(2)}end\n`
    const model = script('resize', [
      {text: 'I will write.', tool_calls: [{arguments: {content, path: 'notes.txt'}, name: 'fs_write'}]},
      {text: 'Written.'},
    ])
    await chat.terminals.open('resize', `node ${CLI} chat --fake-model ${model}`, {cwd: chat.project, width: 120})
    await chat.terminals.waitFor('resize', '/help for commands')
    await chat.terminals.keys('resize', 'write notes', 'Enter')
    await chat.terminals.waitFor('resize', 'Allow fs_write: notes.txt?')
    const questions = (screen: string[]) => screen.filter((line) => line.includes('Allow fs_write: notes.txt?'))
    for (const width of [40, 120, 40]) {
      await chat.terminals.resize('resize', width)
      const screen = await waitForScreen('resize', `the question redrawn at ${width} columns`, (shown) =>
        shown.includes(width === 40 ? '  y allow once\n' : 'y allow once   a allow'),
      )
      expect(questions(screen.split('\n')), screen).toHaveLength(1)
    }

    // The diff was printed at 120 columns: the same file's question at 40 wraps it under the gutter.
    await chat.terminals.keys('resize', 'n', 'Enter')
    await chat.terminals.waitFor('resize', 'Written.')
    const narrow = script('narrow-diff', [
      {text: 'Again.', tool_calls: [{arguments: {content, path: 'notes.txt'}, name: 'fs_write'}]},
      {text: 'Done.'},
    ])
    await chat.terminals.open('narrow', `node ${CLI} chat --fake-model ${narrow}`, {cwd: chat.project, width: 40})
    await chat.terminals.waitFor('narrow', '/help for commands')
    await chat.terminals.keys('narrow', 'write notes', 'Enter')
    await chat.terminals.waitFor('narrow', 'Allow fs_write: notes.txt?')
    const {rows} = await chat.terminals.rows('narrow')
    const diff = rows.slice(rows.indexOf('  new file, 2 lines:') + 1, rows.indexOf('Allow fs_write: notes.txt?'))
    expect(diff[0]).toBe('  +short line')
    expect(diff.length).toBeGreaterThan(3)
    for (const row of diff) expect(row, diff.join('\n')).toMatch(/^ {2}\+\S/)
    for (const row of diff) expect(stringWidth(row)).toBeLessThanOrEqual(40)
    await chat.terminals.keys('narrow', 'Escape')
    await chat.terminals.waitFor('narrow', 'Interrupted: the turn was stopped')
    await chat.terminals.keys('narrow', 'C-d')
    await chat.terminals.keys('resize', 'C-d')
    expect(await chat.terminals.exitStatus('narrow')).toBe(0)
    expect(await chat.terminals.exitStatus('resize')).toBe(0)
  })

  it('run fits a table to 40 columns: cells wrap between words, the rule stays one row', async () => {
    const table = [
      '| Command | What it does | Where |',
      '|---|---|---|',
      '| hanzo-dev run | runs the agent on one task, headless, and prints its answer | anywhere |',
      '| hanzo-dev chat | the interactive session with a prompt at the bottom | a terminal |',
    ].join('\n')
    const model = script('table', [{text: `Here:\n\n${table}\n\nThat is all.`}])
    await chat.terminals.open('table', run(model), {cwd: chat.project, width: 40})
    expect(await chat.terminals.exitStatus('table')).toBe(0)
    // Joined as the terminal wrapped them: a line over 40 columns is one the terminal had to wrap.
    const screen = beforeRunEndLine(await chat.terminals.screen('table'))
    for (const line of screen) expect(stringWidth(line), screen.join('\n')).toBeLessThanOrEqual(40)
    expect(screen.filter((line) => /^─+┼─+┼─+$/.test(line))).toHaveLength(1)
    expect(screen.join('\n')).toContain('headless,')
    expect(screen.at(-1)).toBe('That is all.')
  })
})
