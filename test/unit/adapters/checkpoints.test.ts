import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import type {ToolCall} from '@hanzo-dev/sdk'

import {CheckpointRecorder} from '../../../src/adapters/checkpoints/capture.js'
import {pruneCheckpoints} from '../../../src/adapters/checkpoints/retention.js'
import {CheckpointStore} from '../../../src/adapters/checkpoints/store.js'
import {makeSandbox, type Sandbox} from '../../helpers/cli.js'
import {treeHashes} from '../../helpers/tree-hashes.js'

const edit = (path: string): ToolCall => ({input: {path}, kind: 'edit', locations: [{path}], name: 'fs_write'})

describe.each(['git repository', 'plain directory'])('checkpoints in a %s', (kind) => {
  let box: Sandbox
  let root: string
  let store: CheckpointStore
  let prompt: number
  let recorder: CheckpointRecorder
  const git = (...args: string[]) => execFileSync('git', args, {cwd: root, stdio: 'pipe'})

  beforeEach(() => {
    box = makeSandbox('hanzo-ckpt-')
    root = join(box.home, 'project')
    mkdirSync(join(root, 'src'), {recursive: true})
    writeFileSync(join(root, '.gitignore'), 'build/\n*.log\n')
    writeFileSync(join(root, 'a.txt'), 'a1\n')
    writeFileSync(join(root, 'src', 'b.txt'), 'b1\n')
    writeFileSync(join(root, 'gone.txt'), 'gone\n')
    if (kind === 'git repository') {
      git('init', '-q')
      git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '.')
      git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init')
      writeFileSync(join(root, 'a.txt'), 'a stashed\n')
      git('-c', 'user.name=t', '-c', 'user.email=t@t', 'stash', '-q')
    }

    store = CheckpointStore.at(join(box.home, 'data'))
    prompt = 1
    recorder = newRecorder()
    recorder.hold()
  })

  afterEach(() => box.cleanup())

  const newRecorder = () =>
    new CheckpointRecorder({
      dir: store.projectDir(root),
      hidden: [],
      maxFileBytes: 1000,
      prompt: () => prompt,
      root,
      session: 'sess-1',
    })

  const shell = (command: () => void) =>
    recorder.aroundCommand(async () => {
      command()
    })

  it('puts back what each prompt changed, removes what it created, brings back what it deleted', async () => {
    const gitBefore = existsSync(join(root, '.git')) ? treeHashes(join(root, '.git')) : {}
    const original = treeHashes(root)

    // Prompt 1: an edit, a new file, and a command that deletes one file and creates another.
    await recorder.beforeEdit(edit('a.txt'))
    writeFileSync(join(root, 'a.txt'), 'a2\n')
    await recorder.beforeEdit(edit('new.txt'))
    writeFileSync(join(root, 'new.txt'), 'new\n')
    await shell(() => {
      unlinkSync(join(root, 'gone.txt'))
      writeFileSync(join(root, 'src', 'made.txt'), 'made\n')
      writeFileSync(join(root, 'out.log'), 'ignored\n')
    })
    const afterOne = treeHashes(root)

    // Prompt 2: edits a.txt again (its first change in this prompt) and src/b.txt by a command.
    prompt = 2
    await recorder.beforeEdit(edit('a.txt'))
    writeFileSync(join(root, 'a.txt'), 'a3\n')
    await shell(() => writeFileSync(join(root, 'src', 'b.txt'), 'b2, longer\n'))

    const session = (await store.session('sess-1'))!
    expect(session.changedByPrompt()).toEqual(
      new Map([
        [1, 4],
        [2, 2],
      ]),
    )
    expect(await session.diff(2)).toEqual({created: [], deleted: [], modified: ['a.txt', 'src/b.txt'], notKept: []})
    expect(await session.diff(1)).toEqual({
      created: ['new.txt', 'src/made.txt'],
      deleted: ['gone.txt'],
      modified: ['a.txt', 'src/b.txt'],
      notKept: [],
    })

    await session.restore(2)
    expect(treeHashes(root)).toEqual(afterOne)
    await (await store.session('sess-1'))!.restore(1)
    // What .gitignore ignores is left alone: the log file the command wrote stays.
    const {'out.log': ignoredLog, ...restored} = treeHashes(root)
    expect(ignoredLog).toBeDefined()
    expect(restored).toEqual(original)
    if (kind === 'git repository') {
      expect(treeHashes(join(root, '.git'))).toEqual(gitBefore)
      expect(git('stash', 'list').toString()).toMatch(/stash@\{0\}/)
    }
  })

  it('keeps no file over the size cap (a rewind says it is not restored), and no file .gitignore ignores', async () => {
    writeFileSync(join(root, 'big.txt'), 'x'.repeat(2000))
    mkdirSync(join(root, 'build'))
    writeFileSync(join(root, 'build', 'out.js'), 'built\n')
    await recorder.beforeEdit(edit('big.txt'))
    await recorder.beforeEdit(edit('build/out.js'))
    await shell(() => {
      writeFileSync(join(root, 'big.txt'), 'y'.repeat(2001))
      writeFileSync(join(root, 'build', 'out.js'), 'rebuilt\n')
    })
    const session = (await store.session('sess-1'))!
    expect(session.files.map((file) => [file.type, file.path])).toEqual([['skipped', 'big.txt']])
    expect(await session.diff(1)).toEqual({created: [], deleted: [], modified: [], notKept: ['big.txt']})
    await session.restore(1)
    expect(readFileSync(join(root, 'big.txt'), 'utf8')).toBe('y'.repeat(2001))
  })

  it('records at the end of the turn what a background command changed after its call returned', async () => {
    const original = treeHashes(root)
    await recorder.aroundCommand(async () => {}, {background: true})
    // The command goes on after its call returned.
    writeFileSync(join(root, 'a.txt'), 'changed in the background\n')
    writeFileSync(join(root, 'late.txt'), 'late\n')
    await recorder.settle()
    // After the turn, during the next prompt (which started no background command): not recorded.
    prompt = 2
    writeFileSync(join(root, 'src', 'b.txt'), 'after the turn\n')
    await recorder.settle()

    const session = (await store.session('sess-1'))!
    expect(await session.diff(1)).toEqual({created: ['late.txt'], deleted: [], modified: ['a.txt'], notKept: []})
    await session.restore(1)
    expect(treeHashes(root)).toEqual({...original, 'src/b.txt': treeHashes(root)['src/b.txt']})
  })

  it('removes the directories a removed file was created in once they are empty, not the root nor others', async () => {
    for (const path of ['new/deeper/x.txt', 'src/more/y.txt', 'top.txt']) await recorder.beforeEdit(edit(path))
    mkdirSync(join(root, 'new', 'deeper'), {recursive: true})
    mkdirSync(join(root, 'src', 'more'))
    for (const path of ['new/deeper/x.txt', 'src/more/y.txt', 'top.txt']) writeFileSync(join(root, path), 'made\n')
    // Not the agent's: keeps its directory.
    writeFileSync(join(root, 'src', 'more', 'mine.txt'), 'mine\n')

    await (await store.session('sess-1'))!.restore(1)
    expect(existsSync(join(root, 'new'))).toBe(false)
    expect(readdirSync(join(root, 'src', 'more'))).toEqual(['mine.txt'])
    expect(existsSync(join(root, 'top.txt'))).toBe(false)
    expect(statSync(root).isDirectory()).toBe(true)
  })

  it('records a 200-file change, each file once, within the size cap', async () => {
    for (let i = 0; i < 200; i++) writeFileSync(join(root, 'src', `f${i}.txt`), `old ${i}\n`)
    prompt = 3
    await shell(() => {
      for (let i = 0; i < 200; i++) writeFileSync(join(root, 'src', `f${i}.txt`), `new ${i}\n`)
    })
    await shell(() => {
      for (let i = 0; i < 200; i++) writeFileSync(join(root, 'src', `f${i}.txt`), `newer ${i}\n`)
    })
    const session = (await store.session('sess-1'))!
    expect(session.files).toHaveLength(200)
    await session.restore(3)
    expect(readFileSync(join(root, 'src', 'f7.txt'), 'utf8')).toBe('old 7\n')
  })

  it('is pruned with its session, and by age, never while in use', async () => {
    await recorder.beforeEdit(edit('a.txt'))
    writeFileSync(join(root, 'a.txt'), 'a2\n')
    const later = Date.now() + 100 * 24 * 60 * 60 * 1000
    expect((await pruneCheckpoints(store, {keepDays: 30, maxTotalMb: 1024}, later)).sessions).toEqual([])
    recorder.release()
    expect((await pruneCheckpoints(store, {keepDays: 30, maxTotalMb: 1024}, later)).sessions).toEqual(['sess-1'])
    expect(await store.session('sess-1')).toBeUndefined()
    const objects = join(store.projectDir(root), 'objects')
    const blobs = readdirSync(objects).flatMap((prefix) => readdirSync(join(objects, prefix)))
    // The blob of a.txt's old content is gone; scan.json's (none here) would stay.
    expect(blobs).toEqual([])
    expect(statSync(store.projectDir(root)).isDirectory()).toBe(true)
    rmSync(store.projectDir(root), {force: true, recursive: true})
    expect(await store.deleteSession('sess-1')).toBe(false)
  })

  it('keeps the session locked while another recorder of this process holds it (a chat reopening it)', async () => {
    const lock = join(store.projectDir(root), 'sessions', 'sess-1.lock')
    const reopened = newRecorder()
    reopened.hold()
    recorder.release()
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid))
    reopened.release()
    expect(existsSync(lock)).toBe(false)
  })

  it('scans at the prompt once a scan is known; an edit meanwhile and the command are both taken back', async () => {
    recorder.promptStarted()
    // No scan known yet: the first, which stores every file, waits for a command.
    expect(existsSync(join(store.projectDir(root), 'objects'))).toBe(false)
    await shell(() => writeFileSync(join(root, 'a.txt'), 'a2\n'))
    prompt = 2
    const before = treeHashes(root)
    recorder.promptStarted()
    await recorder.beforeEdit(edit('src/b.txt'))
    writeFileSync(join(root, 'src', 'b.txt'), 'b2\n')
    await shell(() => {
      writeFileSync(join(root, 'src', 'b.txt'), 'b3\n')
      writeFileSync(join(root, 'made.txt'), 'made\n')
    })
    await (await store.session('sess-1'))!.restore(2)
    expect(treeHashes(root)).toEqual(before)
  })
})
