import {spawn} from 'node:child_process'
import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {CLI, REPO_ROOT, useSandboxDirs} from '../helpers/cli.js'
import {beforeRunEndLine, Terminals} from '../helpers/terminal.js'

const README_COMMAND = './bin/run.js run "what is in this repository?" --fake-model examples/demo/model.json'
const DEMO: Script = JSON.parse(readFileSync(join(REPO_ROOT, 'examples', 'demo', 'model.json'), 'utf8'))
/** Past this much output a run is writing without end (the demo's whole output is under 1 KB). */
const RUNAWAY_BYTES = 1024 * 1024

/** `hanzo-dev run` on real terminals: tmux panes, and `script`'s pseudo-terminal. */
describe('hanzo-dev run on a terminal', () => {
  const dirs = useSandboxDirs('hanzo-term-', 'project')
  let terminals: Terminals
  /** As a user's shell has it: colour on (the sandbox turns it off for the other tests). */
  const userEnv = () => Object.fromEntries(Object.entries(dirs.box.env).filter(([key]) => key !== 'NO_COLOR'))
  beforeEach(() => {
    terminals = Terminals.create(userEnv())
    // Explicit: inside a container (CI) the sandbox is off by default, and each run starts by saying so.
    mkdirSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(
      join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
      JSON.stringify({sandbox: {mode: 'workspace'}}),
    )
  })
  afterEach(() => terminals.close())

  it("shows the README's first command's whole answer, exactly as it goes to a file", async () => {
    const answerFile = join(dirs.box.home, 'answer.txt')
    await terminals.open('shown', README_COMMAND, {cwd: REPO_ROOT})
    await terminals.open('saved', `${README_COMMAND} > ${answerFile}`, {cwd: REPO_ROOT})
    expect(await terminals.exitStatus('shown')).toBe(0)
    expect(await terminals.exitStatus('saved')).toBe(0)
    const screen = beforeRunEndLine(await terminals.screen('shown'))
    const activity = (line: string) => line.startsWith('⏺') || line.startsWith('  ↳')
    const answer = screen.filter((line) => !activity(line))
    expect(answer).toEqual([DEMO.turns[0], DEMO.turns[2]].map((turn) => (turn as {text: string}).text))
    expect(answer.join('\n')).toBe(readFileSync(answerFile, 'utf8').trimEnd())
    expect(screen.filter((line) => line.startsWith('⏺'))).toEqual(['⏺ fs_list', '⏺ fs_read README.md'])
  })

  it('finishes on a terminal with 0 columns, writing a bounded amount', async () => {
    const output = await scriptTerminal(README_COMMAND, userEnv())
    expect(output.runaway, 'the run kept writing past 1 MB').toBe(false)
    expect(output.exitCode).toBe(0)
    expect(output.text).toContain('This is hanzo-dev')
    expect(output.text.length).toBeLessThan(16 * 1024)
  })

  it('draws the spinner without colour under NO_COLOR', async () => {
    const output = await scriptTerminal(`stty cols 80 rows 24; ${README_COMMAND}`, {...userEnv(), NO_COLOR: '1'})
    expect(output.exitCode).toBe(0)
    expect(output.text).toContain('Thinking…')
    // No SGR sequence (ESC [ ... m): the spinner's cyan was one.
    expect(output.text).not.toMatch(new RegExp(String.raw`\u001B\[[\d;]*m`))
  })

  it('ends as cancelled (130) on Ctrl-C while the spinner waits for the model', async () => {
    const script = join(dirs.box.home, 'slow.json')
    writeFileSync(script, JSON.stringify({turns: [{delay_ms: 5000, text: 'too late'}]}))
    await terminals.open('wait', `${process.execPath} ${CLI} run 'take your time' --fake-model ${script}`, {
      cwd: dirs.project,
    })
    await terminals.waitFor('wait', 'Thinking…')
    await terminals.keys('wait', 'C-c')
    expect(await terminals.exitStatus('wait')).toBe(130)
    expect(await terminals.screen('wait')).toEqual(['Cancelled'])
  })

  it('shows the diff it asks about; Ctrl-C at the question ends the run as cancelled (130), the transcript closed', async () => {
    const script = join(dirs.box.home, 'edit.json')
    const edit = {new_string: 'TWO\nand more', old_string: 'two', path: 'a.txt'}
    writeFileSync(
      script,
      JSON.stringify({
        turns: [{text: 'I will edit.', tool_calls: [{arguments: edit, name: 'fs_edit'}]}, {text: 'never reached'}],
      }),
    )
    writeFileSync(join(dirs.project, 'a.txt'), 'one\ntwo\nthree\n')
    await terminals.open('ask', `${process.execPath} ${CLI} run 'change a.txt' --fake-model ${script}`, {
      cwd: dirs.project,
    })
    const question = await terminals.waitFor('ask', 'Allow fs_edit')
    const diffAt = question.indexOf('  @@ -1,3 +1,4 @@')
    expect(question.slice(diffAt, diffAt + 6)).toEqual([
      '  @@ -1,3 +1,4 @@',
      '   one',
      '  -two',
      '  +TWO',
      '  +and more',
      '   three',
    ])
    expect(question.findIndex((line) => line.includes('Allow fs_edit: a.txt?'))).toBeGreaterThan(diffAt)
    await terminals.keys('ask', 'C-c')
    expect(await terminals.exitStatus('ask')).toBe(130)
    const screen = (await terminals.screen('ask')).join('\n')
    expect(screen).toContain('\nCancelled')
    expect(screen).not.toMatch(/ExitPromptError|\bat .*\.js:\d+/)
    expect(readFileSync(join(dirs.project, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n')
    const sessions = join(dirs.box.env.XDG_DATA_HOME, 'hanzo-dev', 'sessions')
    const [project] = readdirSync(sessions)
    const [file] = readdirSync(join(sessions, project))
    const lines = readFileSync(join(sessions, project, file), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines.at(-1)).toMatchObject({stop: 'cancelled', type: 'end'})
    expect(lines.filter((line) => line.type === 'tool_result')).toMatchObject([{is_error: true, tool_name: 'fs_edit'}])
  })

  it('renders a markdown answer on the terminal: no `**`, `#` or fence markers; a file gets the text as sent', async () => {
    const script = join(dirs.box.home, 'markdown.json')
    const text = '# Result\n\nThe fix is **done** now.\n\n```ts\nconst answer: number = 42\n```\nBye.'
    // Small chunks: markers arrive split across deltas, as a real model sends them.
    writeFileSync(script, JSON.stringify({turns: [{chunk_size: 3, text}]}))
    const command = `${process.execPath} ${CLI} run 'show me' --fake-model ${script}`
    const answerFile = join(dirs.box.home, 'markdown.txt')
    await terminals.open('md', command, {cwd: dirs.project})
    await terminals.open('md-saved', `${command} > ${answerFile}`, {cwd: dirs.project})
    expect(await terminals.exitStatus('md')).toBe(0)
    expect(await terminals.exitStatus('md-saved')).toBe(0)
    const screen = beforeRunEndLine(await terminals.screen('md'))
    expect(screen).toEqual(['Result', '', 'The fix is done now.', '', 'const answer: number = 42', 'Bye.'])
    expect(readFileSync(answerFile, 'utf8')).toBe(`${text}\n`)
  })
})

/**
 * Runs `command` under `script`, whose pseudo-terminal has the size of the terminal it runs in:
 * with stdin not a terminal, 0 columns and 0 rows. TERM says it is a colour terminal, as a user's does. Stopped once it has written RUNAWAY_BYTES.
 */
function scriptTerminal(
  command: string,
  env: Record<string, string>,
): Promise<{text: string; exitCode: number | null; runaway: boolean}> {
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd: REPO_ROOT,
    env: {
      LANG: 'C.UTF-8',
      TERM: 'xterm-256color',
      ...env,
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const chunks: Buffer[] = []
  let bytes = 0
  let runaway = false
  child.stdout.on('data', (chunk: Buffer) => {
    bytes += chunk.length
    if (bytes <= RUNAWAY_BYTES) chunks.push(chunk)
    else if (!runaway) {
      runaway = true
      child.kill('SIGKILL')
    }
  })
  return new Promise((resolve) => {
    child.on('close', (exitCode) => resolve({exitCode, runaway, text: Buffer.concat(chunks).toString('utf8')}))
  })
}
