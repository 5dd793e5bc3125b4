import {appendFileSync, mkdirSync, unlinkSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import type {ToolCall} from '@hanzo-dev/sdk'

import {CheckpointRecorder} from '../../../src/adapters/checkpoints/capture.js'
import {applyRewind, planRewind} from '../../../src/adapters/checkpoints/rewind.js'
import {CheckpointStore} from '../../../src/adapters/checkpoints/store.js'
import {UndoStack} from '../../../src/adapters/checkpoints/undo.js'
import {SessionStore} from '../../../src/adapters/session-store.js'
import {conversationLines} from '../../../src/core/sessions/history.js'
import {makeSandbox, type Sandbox} from '../../helpers/cli.js'
import {treeHashes} from '../../helpers/tree-hashes.js'

const ID = '00000000-0000-4000-8000-000000000001'
const edit = (path: string): ToolCall => ({input: {path}, kind: 'edit', locations: [{path}], name: 'fs_write'})
const line = (value: object) => `${JSON.stringify(value)}\n`

describe('UndoStack: /undo and /redo without a terminal', () => {
  let box: Sandbox
  let root: string
  let transcript: string
  let stores: {sessions: SessionStore; checkpoints: CheckpointStore}
  let prompt: number
  let recorder: CheckpointRecorder
  const warnings: string[] = []

  /** One prompt of the session: its run line (after the first), its messages, and the file changes it makes. */
  async function send(text: string, changes: () => Promise<void>) {
    prompt += 1
    if (prompt > 1) appendFileSync(transcript, line({at: 'now', cwd: root, model: 'm', provider: 'p', type: 'run'}))
    appendFileSync(
      transcript,
      line({content: text, type: 'user'}) + line({content: 'done', tool_calls: [], type: 'assistant'}),
    )
    await changes()
  }

  const write = async (path: string, content: string) => {
    await recorder.beforeEdit(edit(path))
    writeFileSync(join(root, path), content)
  }

  const remove = async (path: string) => {
    await recorder.beforeEdit(edit(path))
    unlinkSync(join(root, path))
  }

  const conversation = async () =>
    conversationLines((await stores.sessions.read(transcript)).lines).map((message) =>
      message.type === 'user' ? message.content : message.type,
    )

  beforeEach(() => {
    box = makeSandbox('hanzo-undo-')
    root = join(box.home, 'project')
    mkdirSync(root)
    writeFileSync(join(root, 'a.txt'), 'a1\n')
    writeFileSync(join(root, 'gone.txt'), 'gone\n')
    const dataDir = join(box.home, 'data')
    stores = {checkpoints: CheckpointStore.at(dataDir), sessions: SessionStore.at(dataDir)}
    transcript = stores.sessions.pathFor(root, ID)
    mkdirSync(dirname(transcript), {recursive: true})
    writeFileSync(
      transcript,
      line({
        created_at: 'then',
        cwd: root,
        id: ID,
        model: 'm',
        project_root: root,
        provider: 'p',
        type: 'session',
        version: 1,
      }),
    )
    prompt = 0
    recorder = new CheckpointRecorder({
      dir: stores.checkpoints.projectDir(root),
      hidden: [],
      maxFileBytes: 1000,
      prompt: () => prompt,
      root,
      session: ID,
    })
    warnings.splice(0)
  })

  afterEach(() => box.cleanup())

  it('undoes the last prompts one after another and redoes them in order, files and conversation', async () => {
    const states = [treeHashes(root)]
    await send('prompt 1', () => write('a.txt', 'a2\n'))
    states.push(treeHashes(root))
    await send('prompt 2', async () => {
      await write('new.txt', 'new\n')
      await remove('gone.txt')
    })
    states.push(treeHashes(root))
    await send('prompt 3', async () => {
      await write('a.txt', 'a3\n')
      await remove('new.txt')
    })
    states.push(treeHashes(root))
    const undos = new UndoStack(stores, (message) => warnings.push(message))

    const third = (await undos.plan(ID))!
    expect(third.to).toBe(3)
    expect(third.code).toEqual({created: [], deleted: ['new.txt'], modified: ['a.txt'], notKept: []})
    await undos.undo(third)
    expect(treeHashes(root)).toEqual(states[2])
    expect(await conversation()).toEqual(['prompt 1', 'assistant', 'prompt 2', 'assistant'])

    const second = (await undos.plan(ID))!
    expect(second.to).toBe(2)
    await undos.undo(second)
    expect(treeHashes(root)).toEqual(states[1])
    expect(await conversation()).toEqual(['prompt 1', 'assistant'])

    expect(await undos.redo(ID)).toEqual({files: 2, prompt: 2})
    expect(treeHashes(root)).toEqual(states[2])
    expect(await conversation()).toEqual(['prompt 1', 'assistant', 'prompt 2', 'assistant'])
    expect(await undos.redo(ID)).toEqual({files: 2, prompt: 3})
    expect(treeHashes(root)).toEqual(states[3])
    expect(await conversation()).toEqual(['prompt 1', 'assistant', 'prompt 2', 'assistant', 'prompt 3', 'assistant'])
    expect(await undos.redo(ID)).toMatch(/^Nothing to redo: \/undo/)

    // The checkpoint records came back with the redo: a rewind to before prompt 1 still finds them all.
    expect((await stores.checkpoints.session(ID))!.changedByPrompt()).toEqual(
      new Map([
        [1, 1],
        [2, 2],
        [3, 2],
      ]),
    )
    await (await stores.checkpoints.session(ID))!.restore(1)
    expect(treeHashes(root)).toEqual(states[0])
    expect(warnings).toEqual([])
  })

  it('refuses a redo once a prompt was sent after the undo, and then undoes that prompt', async () => {
    await send('prompt 1', () => write('a.txt', 'a2\n'))
    await send('prompt 2', () => write('a.txt', 'a3\n'))
    const undos = new UndoStack(stores, (message) => warnings.push(message))
    await undos.undo((await undos.plan(ID))!)
    await send('prompt 3, after the undo', () => write('a.txt', 'a4\n'))
    expect(await undos.redo(ID)).toBe('Nothing to redo: a prompt was sent since the undo.')
    expect((await undos.plan(ID))!.to).toBe(3)
  })

  it('passes over a prompt whose conversation a rewind took back', async () => {
    await send('prompt 1', () => write('a.txt', 'a2\n'))
    await send('prompt 2', () => write('a.txt', 'a3\n'))
    await applyRewind(stores, await planRewind(stores, ID, 2), {code: false, conversation: true}, () => {})
    const undos = new UndoStack(stores, (message) => warnings.push(message))
    const plan = (await undos.plan(ID))!
    expect(plan.to).toBe(1)
    await undos.undo(plan)
    expect(await conversation()).toEqual([])
    expect(await undos.plan(ID)).toBeUndefined()
  })

  it('has nothing left to undo once every prompt is undone', async () => {
    await send('prompt 1', () => write('a.txt', 'a2\n'))
    const undos = new UndoStack(stores, (message) => warnings.push(message))
    await undos.undo((await undos.plan(ID))!)
    expect(await undos.plan(ID)).toBeUndefined()
  })
})
