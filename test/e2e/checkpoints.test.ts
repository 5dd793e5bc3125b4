import {execFileSync} from 'node:child_process'
import {mkdirSync, readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {makeSandbox, runCli, type Sandbox, unwrapped} from '../helpers/cli.js'
import {treeHashes} from '../helpers/tree-hashes.js'

/** One prompt's changes: the tool calls of one turn, then a closing answer. */
const turn = (calls: Array<{name: string; arguments: Record<string, unknown>}>): Script => ({
  turns: [{tool_calls: calls}, {text: 'done'}],
})

const PROMPTS: Script[] = [
  turn([
    {arguments: {new_string: 'a2', old_string: 'a1', path: 'a.txt'}, name: 'fs_edit'},
    {arguments: {content: 'created 1\n', path: 'src/new.txt'}, name: 'fs_write'},
  ]),
  turn([
    {arguments: {command: 'rm gone.txt && echo made > made.txt && echo log > out.log'}, name: 'exec'},
    {arguments: {content: 'b2\n', path: 'src/b.txt'}, name: 'fs_write'},
  ]),
  turn([
    {arguments: {content: 'a3\n', path: 'a.txt'}, name: 'fs_write'},
    {arguments: {command: 'rm src/new.txt'}, name: 'exec'},
  ]),
]

describe.each(['git repository', 'plain directory'])('sessions rewind in a %s', (kind) => {
  // Under /var/tmp: the sandbox gives commands a private /tmp, where their changes would not be seen.
  const dirs = {} as {box: Sandbox; project: string}
  beforeEach(() => {
    dirs.box = makeSandbox('hanzo-rewind-', '/var/tmp')
    dirs.project = join(dirs.box.home, 'project')
    mkdirSync(dirs.project)
  })
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
    dirs.box.cleanup()
  })

  const cli = (...args: string[]) => runCli(args, {cwd: dirs.project, env: dirs.box.env})

  let original: Record<string, string> = {}
  const gitHashes = () => (kind === 'git repository' ? treeHashes(join(dirs.project, '.git')) : {})

  /** The project, then three prompts that edit, write, delete and create files: the session's id. */
  async function threePrompts(): Promise<string> {
    writeFileSync(join(dirs.project, '.gitignore'), '*.log\n')
    writeFileSync(join(dirs.project, 'a.txt'), 'a1\n')
    writeFileSync(join(dirs.project, 'gone.txt'), 'gone\n')
    mkdirSync(join(dirs.project, 'src'))
    writeFileSync(join(dirs.project, 'src', 'b.txt'), 'b1\n')
    if (kind === 'git repository') {
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {cwd: dirs.project})
      git('init', '-q')
      git('add', '.')
      git('commit', '-qm', 'init')
    }

    original = withoutGit(treeHashes(dirs.project))
    let id = ''
    for (const [index, script] of PROMPTS.entries()) {
      await model?.close()
      model = await startFakeModel(script)
      const args = ['run', `prompt ${index + 1}`, '--base-url', model.url, '--model', 'm1']
      const result = await cli(
        ...args,
        '--permission-mode',
        'allow-all',
        '--output-format',
        'json',
        ...(index > 0 ? ['--continue'] : []),
      )
      expect(result.exitCode, result.stderr).toBe(0)
      id = JSON.parse(result.stdout).session_id
    }

    return id
  }

  it('--to 1 --code puts every file back as it was before the first prompt, byte for byte', async () => {
    const id = await threePrompts()
    const after = withoutGit(treeHashes(dirs.project))
    expect(after['made.txt']).toBeDefined()
    const gitBefore = gitHashes()

    const shown = await cli('sessions', 'rewind', id.slice(0, 8), '--to', '1', '--code')
    expect(shown.exitCode).toBe(2)
    expect(shown.stdout).toContain('  D made.txt  (created since)')
    expect(shown.stdout).toContain('  A gone.txt  (deleted since)')
    expect(shown.stdout).toContain('  M a.txt')
    expect(unwrapped(shown.stderr)).toContain('confirming needs a terminal')
    expect(unwrapped(shown.stderr)).toContain(`sessions rewind ${id} --to 1 --code --yes`)
    expect(withoutGit(treeHashes(dirs.project))).toEqual(after)

    const result = await cli('sessions', 'rewind', id, '--to', '1', '--code', '--yes', '--json')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({
      code: {created: ['made.txt'], deleted: ['gone.txt'], modified: ['a.txt', 'src/b.txt']},
      conversation: null,
      status: 'rewound',
      to: 1,
    })
    // What .gitignore ignores (out.log, which a command wrote) is left as it is.
    expect(withoutGit(treeHashes(dirs.project))).toEqual({...original, 'out.log': after['out.log']})
    expect(gitHashes()).toEqual(gitBefore)

    // The conversation is untouched.
    const session = await cli('sessions', 'show', id, '--json')
    expect(JSON.parse(session.stdout).transcript.filter((l: {type: string}) => l.type === 'history')).toEqual([])
  })

  it('--conversation cuts the conversation back and leaves the files', async () => {
    const id = await threePrompts()
    const files = treeHashes(dirs.project)
    const result = await cli('sessions', 'rewind', id, '--to', '2', '--conversation', '--yes', '--json')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({code: null, status: 'rewound', to: 2})
    expect(treeHashes(dirs.project)).toEqual(files)
    const shown = await cli('sessions', 'show', id)
    expect(shown.stdout).toContain('── the conversation continues from here as 5 messages (rewound)')

    // The next prompt carries on from the conversation before prompt 2: prompt 1 and its answer.
    model = await startFakeModel({
      turns: [{expect: {last_user_contains: 'prompt 4'}, text: 'ok'}],
    })
    const next = await cli(
      'run',
      'prompt 4',
      '--continue',
      '--base-url',
      model.url,
      '--model',
      'm1',
      '--output-format',
      'json',
    )
    expect(next.exitCode, next.stderr).toBe(0)
    const sent = model.requests.at(-1)!.body as {messages: Array<{role: string; content: unknown}>}
    const users = sent.messages.filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content))
    expect(users.join('\n')).toContain('prompt 1')
    expect(users.join('\n')).not.toContain('prompt 2')
    expect(users.join('\n')).not.toContain('prompt 3')
  })

  it('refuses a prompt the session does not have, and sessions delete removes the checkpoints', async () => {
    const id = await threePrompts()
    const wrong = await cli('sessions', 'rewind', id, '--to', '9', '--yes')
    expect(wrong.exitCode).toBe(2)
    expect(unwrapped(wrong.stderr)).toContain('has prompts 1 to 3, not 9')
    expect(wrong.stderr).not.toMatch(/\n\s+at /)
    const deleted = await cli('sessions', 'delete', id, '--json')
    expect(JSON.parse(deleted.stdout)).toMatchObject({checkpoints: true, deleted: true})
    const root = join(dirs.box.env.XDG_DATA_HOME, 'hanzo-dev', 'checkpoints')
    const logs = readdirSync(root).flatMap((project) => readdirSync(join(root, project, 'sessions')))
    expect(logs.filter((name) => name.startsWith(id))).toEqual([])
  })
})

function withoutGit(tree: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(tree).filter(([path]) => !(path === '.git' || path.startsWith('.git/'))))
}

describe('sessions rewind of a file over the size cap', () => {
  let box: Sandbox
  let model: FakeModel | undefined
  beforeEach(() => {
    box = makeSandbox('hanzo-rewind-big-', '/var/tmp')
  })
  afterEach(async () => {
    await model?.close()
    box.cleanup()
  })

  it('says the file changed but was not kept, in text and --json, and restores the rest', async () => {
    const project = join(box.home, 'project')
    mkdirSync(project)
    writeFileSync(join(project, 'a.txt'), 'a1\n')
    writeFileSync(join(project, 'big.bin'), Buffer.alloc(1024 * 1024 + 1, 1))
    writeFileSync(join(project, 'big2.bin'), Buffer.alloc(1024 * 1024 + 1, 2))
    model = await startFakeModel(
      turn([
        {arguments: {content: 'a2\n', path: 'a.txt'}, name: 'fs_write'},
        {arguments: {content: 'small now\n', path: 'big2.bin'}, name: 'fs_write'},
        {arguments: {command: 'echo more >> big.bin'}, name: 'exec'},
      ]),
    )
    const cli = (...args: string[]) => runCli(args, {cwd: project, env: box.env})
    const original = treeHashes(project)
    const ran = await cli(
      'run',
      'grow',
      '--base-url',
      model.url,
      '--model',
      'm1',
      '--permission-mode',
      'allow-all',
      '--output-format',
      'json',
    )
    expect(ran.exitCode, ran.stderr).toBe(0)
    const id = JSON.parse(ran.stdout).session_id as string
    const big = treeHashes(project)

    const shown = await cli('sessions', 'rewind', id, '--code')
    expect(shown.stdout).toContain('  M a.txt')
    expect(shown.stdout).toContain('big.bin changed but was over the size cap (1 MiB): not restored')
    expect(shown.stdout).toContain('big2.bin changed but was over the size cap (1 MiB): not restored')

    const result = await cli('sessions', 'rewind', id, '--code', '--yes', '--json')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout).code).toEqual({
      created: [],
      deleted: [],
      modified: ['a.txt'],
      notKept: ['big.bin', 'big2.bin'],
    })
    // The big files stay as the command and the edit left them.
    expect(treeHashes(project)).toEqual({...big, 'a.txt': original['a.txt']})
  })
})
