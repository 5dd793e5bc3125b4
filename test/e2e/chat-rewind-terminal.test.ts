import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import type {ReplyTurn} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {CLI, makeSandbox, type Sandbox} from '../helpers/cli.js'
import {waitUntil} from '../helpers/processes.js'
import {Terminals} from '../helpers/terminal.js'
import {treeHashes} from '../helpers/tree-hashes.js'

/** One prompt's changes: the tool calls of one turn, then a closing answer. */
const prompt = (answer: string, calls: Array<{name: string; arguments: Record<string, unknown>}>): ReplyTurn[] => [
  {tool_calls: calls},
  {text: answer},
]

const TURNS: ReplyTurn[] = [
  ...prompt('done one', [
    {arguments: {new_string: 'a2', old_string: 'a1', path: 'a.txt'}, name: 'fs_edit'},
    {arguments: {content: 'created 1\n', path: 'src/new.txt'}, name: 'fs_write'},
  ]),
  ...prompt('done two', [
    {arguments: {command: 'rm gone.txt && echo made > made.txt'}, name: 'exec'},
    {arguments: {content: 'b2\n', path: 'src/b.txt'}, name: 'fs_write'},
  ]),
  ...prompt('done three', [
    {arguments: {content: 'a3\n', path: 'a.txt'}, name: 'fs_write'},
    {arguments: {command: 'rm src/new.txt'}, name: 'exec'},
  ]),
  {text: 'done four'},
  {text: 'done five'},
  {text: 'done six'},
  {text: 'done seven'},
]

/**
 * `/rewind`, Esc Esc, `/undo` and `/redo` on a real terminal, in one chat: the scripted model
 * edits, writes, deletes and creates files over three prompts, then each way back is taken and
 * checked on the files (hashes) and on what the next prompt sends the model.
 */
describe('hanzo-dev chat: /rewind, /undo, /redo', () => {
  // Under /var/tmp: the sandbox gives commands a private /tmp, where their changes would not be seen.
  let box: Sandbox
  let project: string
  let terminals: Terminals
  let model: FakeModel
  beforeAll(async () => {
    box = makeSandbox('hanzo-chat-rewind-', '/var/tmp')
    project = join(box.home, 'project')
    mkdirSync(join(project, 'src'), {recursive: true})
    mkdirSync(join(box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(
      join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
      JSON.stringify({sandbox: {mode: 'workspace'}}),
    )
    terminals = Terminals.create(box.env)
    model = await startFakeModel({turns: TURNS})
  })
  afterAll(async () => {
    await terminals.close()
    await model.close()
    box.cleanup()
  })

  /** The terminal the helpers below act on: one per test. */
  let pane = 'chat'
  const files = () => treeHashes(project)
  /** Waits for `text` on the screen; a failure shows the screen. */
  const shows = (text: string) =>
    terminals.waitFor(pane, text).catch(async (error: Error) => {
      throw new Error(`${error.message}; the screen:\n${(await terminals.screen(pane)).join('\n')}`)
    })
  /** The user messages of the model's last request. */
  const sentUsers = () => {
    const body = model.requests.at(-1)!.body as {messages: Array<{role: string; content: unknown}>}
    return body.messages.filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content))
  }

  const send = async (text: string, answer: string) => {
    await terminals.keys(pane, text, 'Enter')
    await shows(answer)
    // The turn is over once the prompt is back (its checkpoints and transcript written).
    await waitUntil(async () => !(await terminals.screen(pane)).join('\n').includes('Thinking'), 'the turn ended')
  }

  const command = async (text: string, expected: string) => {
    await terminals.keys(pane, text, 'Enter')
    return (await shows(expected)).join('\n')
  }

  it('takes back code, conversation or both, and undo/redo round-trips', async () => {
    writeFileSync(join(project, 'a.txt'), 'a1\n')
    writeFileSync(join(project, 'gone.txt'), 'gone\n')
    writeFileSync(join(project, 'src', 'b.txt'), 'b1\n')
    const states = [files()]
    await terminals.open('chat', `node ${CLI} chat --base-url ${model.url} --model m1 --permission-mode allow-all`, {
      cwd: project,
      height: 60,
      width: 110,
    })
    await shows('/help for commands')
    for (const [index, answer] of ['done one', 'done two', 'done three'].entries()) {
      await send(`prompt ${index + 1}`, answer)
      states.push(files())
    }

    expect(states[3]['made.txt']).toBeDefined()
    expect(states[3]['gone.txt']).toBeUndefined()

    // Esc Esc on the empty prompt opens the list, newest first; Esc cancels, nothing done.
    await terminals.keys(pane, 'Escape')
    await terminals.keys(pane, 'Escape')
    const list = (await shows('Rewind to before which prompt?')).join('\n')
    expect(list).toMatch(/1 +#3 {2}prompt 3 {2}· 2 files changed/)
    expect(list).toMatch(/3 +#1 {2}prompt 1 {2}· 2 files changed/)
    await terminals.keys(pane, 'Escape')
    await shows('Nothing rewound.')
    expect(files()).toEqual(states[3])

    // /undo: the diff of the last prompt, asked; then its files and conversation go back, its prompt comes back to edit.
    const undo = await command('/undo', 'Undo prompt 3')
    expect(undo).toContain('-a3')
    expect(undo).toContain('+a2')
    await terminals.keys(pane, 'y')
    await shows('Undid prompt 3: 2 files put back')
    expect(files()).toEqual(states[2])
    // The prompt taken back is in the input, above the status line.
    expect((await terminals.screen(pane)).at(-2)).toBe('› prompt 3')
    await terminals.keys(pane, 'C-c')

    await command('/redo', 'Redid prompt 3: 2 files and the conversation put back.')
    expect(files()).toEqual(states[3])
    await send('prompt 4', 'done four')
    expect(sentUsers().join('\n')).toContain('prompt 3')

    // /rewind, pick prompt 1 (the fourth newest): the preview, then the conversation only.
    await command('/rewind', 'Rewind to before which prompt?')
    await terminals.keys(pane, '4')
    const preview = (await shows('b  both')).join('\n')
    expect(preview).toContain('Before prompt 1 of 4: prompt 1')
    expect(preview).toContain('D made.txt  (created since)')
    expect(preview).toContain('A gone.txt  (deleted since)')
    expect(preview).toMatch(/-a3\n.*\+a1/)
    expect(preview).toContain('-b2')
    expect(preview).toMatch(/Conversation: \d+ messages now, 0 after the rewind./)
    await terminals.keys(pane, 'v')
    await shows('Rewound the conversation (0 messages) to before prompt 1.')
    expect(files()).toEqual(states[3])
    await terminals.keys(pane, 'C-c')
    await send('prompt 5', 'done five')
    expect(sentUsers()).toHaveLength(1)
    expect(sentUsers()[0]).toContain('prompt 5')

    // The code only, to before prompt 2: the conversation stays.
    await command('/rewind 2', 'b  both')
    await terminals.keys(pane, 'c')
    await shows('Rewound the code (5 files put back) to before prompt 2.')
    expect(files()).toEqual(states[1])
    await send('prompt 6', 'done six')
    expect(sentUsers().join('\n')).toContain('prompt 5')

    // Both, to before prompt 1: the files as they were at the start, and a conversation from nothing.
    await command('/rewind 1', 'b  both')
    await terminals.keys(pane, 'b')
    await shows('Rewound the code (2 files put back) and the conversation (0 messages)')
    expect(files()).toEqual(states[0])
    await terminals.keys(pane, 'C-c')
    await send('prompt 7', 'done seven')
    expect(sentUsers()).toHaveLength(1)

    // /help names the commands and the key.
    const help = await command('/help', 'Esc Esc on an empty prompt')
    for (const shown of ['/rewind [N]', '/undo ', '/redo ']) expect(help).toContain(shown)

    await terminals.keys(pane, 'C-d')
    expect(await terminals.exitStatus(pane)).toBe(0)
  })

  it('without checkpoints offers the conversation only; refuses a redo after a new prompt and a prompt it does not have', async () => {
    await model.close()
    model = await startFakeModel({turns: [{text: 'said one'}, {text: 'said two'}, {text: 'said three'}]})
    pane = 'plain'
    await terminals.open(pane, `node ${CLI} chat --base-url ${model.url} --model m1`, {cwd: project, height: 60})
    await shows('/help for commands')
    await send('first words', 'said one')
    await send('second words', 'said two')

    await command('/rewind 9', 'has prompts 1 to 2, not 9')
    const offered = await command('/rewind 2', 'Rewind to before prompt 2?')
    expect(offered).toContain('only the conversation goes back')
    expect(offered).not.toContain('b  both')
    await terminals.keys(pane, 'b')
    await terminals.keys(pane, 'v')
    await shows('Rewound the conversation (2 messages) to before prompt 2.')
    await terminals.keys(pane, 'C-c')

    // The conversation no longer holds prompt 2: /undo takes back prompt 1.
    await command('/undo', 'Undid prompt 1: 0 files put back, the conversation back to 0 messages.')
    await terminals.keys(pane, 'C-c')
    await send('third words', 'said three')
    await command('/redo', 'Nothing to redo: a prompt was sent since the undo.')
    await terminals.keys(pane, 'C-d')
    expect(await terminals.exitStatus(pane)).toBe(0)
  })
})
