import {chmodSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {CLI, useSandboxDirs} from '../../../test/helpers/cli.js'
import {CLIPBOARD, expectShownNotObeyed, TITLE} from '../../../test/helpers/hostile-text.js'
import {runOnTerminal, Terminals} from '../../../test/helpers/terminal.js'
import {addOrigin, makeRepo, type Repo} from './git-fixture.js'

/** The git commands on a real terminal (tmux): commit's message shown, then accepted, edited, regenerated or cancelled; the branch question; diff's pager. */
describe('hanzo-dev commit on a terminal', () => {
  const dirs = useSandboxDirs('hanzo-git-term-')
  let terminals: Terminals
  let repo: Repo
  beforeEach(() => {
    repo = makeRepo(dirs.box)
    const editor = join(dirs.box.home, 'editor.sh')
    // A scripted editor: what a user types, then saves.
    writeFileSync(editor, `#!/bin/sh\nprintf 'fix(readme): edited by hand\\n\\n# a comment line, left out\\n' > "$1"\n`)
    chmodSync(editor, 0o755)
    terminals = Terminals.create({...repo.env, EDITOR: editor})
  })
  afterEach(() => terminals.close())

  function script(turns: unknown[]): string {
    const file = join(dirs.box.home, 'model.json')
    writeFileSync(file, JSON.stringify({turns}))
    return file
  }

  it('regenerates, edits in $EDITOR, then commits the edited message', async () => {
    repo.write('README.md', 'hello\nworld\n')
    const model = script([
      {text: 'docs: first try'},
      {expect: {last_user_contains: 'different commit message'}, text: 'docs(readme): second try'},
    ])
    await terminals.open('commit', `${process.execPath} ${CLI} commit --fake-model ${model}`, {
      cwd: repo.dir,
      height: 40,
    })
    await terminals.waitFor('commit', 'Commit with this message?')
    expect((await terminals.screen('commit')).join('\n')).toContain('docs: first try')
    await terminals.keys('commit', 'Down', 'Down', 'Enter')
    await terminals.waitFor('commit', 'docs(readme): second try')
    await terminals.waitFor('commit', 'Commit with this message?')
    await terminals.keys('commit', 'Down', 'Enter')
    await terminals.waitFor('commit', 'fix(readme): edited by hand')
    await terminals.waitFor('commit', 'Commit with this message?')
    await terminals.keys('commit', 'Enter')
    expect(await terminals.exitStatus('commit')).toBe(0)
    expect(repo.git('log', '-1', '--format=%B')).toBe('fix(readme): edited by hand')
    expect((await terminals.screen('commit')).join('\n')).toContain('Committed [main ')
  })

  it('cancel commits nothing and puts the index back as it was', async () => {
    repo.write('README.md', 'staged\n')
    repo.git('add', 'README.md')
    repo.write('README.md', 'staged\nunstaged\n')
    repo.write('new.txt', 'new\n')
    repo.git('add', '--intent-to-add', 'new.txt')
    repo.write('loose.txt', 'loose\n')
    const before = repo.indexState()
    const model = script([{text: 'docs: never used'}])
    await terminals.open('cancel', `${process.execPath} ${CLI} commit --all --fake-model ${model}`, {
      cwd: repo.dir,
      height: 40,
    })
    await terminals.waitFor('cancel', 'Commit with this message?')
    await terminals.keys('cancel', 'Down', 'Down', 'Down', 'Enter')
    expect(await terminals.exitStatus('cancel')).toBe(130)
    expect((await terminals.screen('cancel')).join('\n')).toContain('the index is as it was')
    expect(repo.indexState()).toBe(before)
    expect(repo.git('rev-list', '--count', 'HEAD')).toBe('1')
  })

  it('Ctrl-C at the question puts the index back too', async () => {
    repo.write('README.md', 'changed\n')
    repo.write('new.txt', 'new\n')
    const before = repo.indexState()
    await terminals.open(
      'interrupt',
      `${process.execPath} ${CLI} commit --all --fake-model ${script([{text: 'docs: never used'}])}`,
      {cwd: repo.dir, height: 40},
    )
    await terminals.waitFor('interrupt', 'Commit with this message?')
    await terminals.keys('interrupt', 'C-c')
    expect(await terminals.exitStatus('interrupt')).toBe(130)
    expect(repo.indexState()).toBe(before)
  })

  it('Ctrl-C while the model writes puts the index back', async () => {
    repo.write('README.md', 'changed\n')
    repo.write('new.txt', 'new\n')
    const before = repo.indexState()
    await terminals.open(
      'thinking',
      `${process.execPath} ${CLI} commit --all --fake-model ${script([{delay_ms: 3000, chunk_size: 1, text: 'docs: slow'}])}`,
      {cwd: repo.dir, height: 40},
    )
    await terminals.waitFor('thinking', 'Thinking')
    await terminals.keys('thinking', 'C-c')
    expect(await terminals.exitStatus('thinking')).toBe(130)
    expect(repo.indexState()).toBe(before)
    expect(repo.git('rev-list', '--count', 'HEAD')).toBe('1')
  })

  it('commit-push-pr on main asks for the branch name, then commits, pushes and says how to open the pull request', async () => {
    const bare = addOrigin(dirs.box, repo)
    repo.write('README.md', 'hello\nworld\n')
    const model = script([{text: 'docs(readme): greet the world'}])
    await terminals.open('pr', `${process.execPath} ${CLI} commit-push-pr --fake-model ${model}`, {
      cwd: repo.dir,
      height: 40,
    })
    await terminals.waitFor('pr', 'Commit with this message?')
    await terminals.keys('pr', 'Enter')
    await terminals.waitFor('pr', 'docs/readme-greet-the-world')
    await terminals.keys('pr', 'C-u', 'docs/greeting', 'Enter')
    expect(await terminals.exitStatus('pr')).toBe(0)
    const screen = (await terminals.screen('pr')).join('\n')
    expect(screen).toContain('Pushed docs/greeting to origin')
    expect(screen).toContain('open it on your git host for the branch docs/greeting')
    expect(repo.git('--git-dir', bare, 'log', '-1', '--format=%s', 'docs/greeting')).toBe(
      'docs(readme): greet the world',
    )
  })

  it("shows the model's message for review and in the report, never lets it drive the terminal (the bytes sent: no OSC 52, no OSC 0)", async () => {
    repo.write('README.md', 'hello\nworld\n')
    const model = script([{text: `docs: greet ${CLIPBOARD}\n\nAnd retitle ${TITLE}`}])
    const terminal = runOnTerminal(['commit', '--fake-model', model], {cwd: repo.dir, env: repo.env})
    await terminal.waitFor('Commit with this message?')
    terminal.type('\r')
    expect(await terminal.exitCode, terminal.output()).toBe(0)
    expectShownNotObeyed(terminal.raw())
    expect(terminal.raw()).toMatch(/Committed.*\[main [\da-f]{7}\] docs: greet \^\[\]52;c;cHduZWQ=\^G/)
    // Committed as the model wrote it: git keeps the message; only the terminal is spared.
    expect(repo.git('log', '-1', '--format=%s')).toBe(`docs: greet ${CLIPBOARD}`)
  })

  it("diff pages a long diff through git's pager", async () => {
    repo.write('README.md', Array.from({length: 80}, (_, i) => `line ${i + 1}`).join('\n') + '\n')
    await terminals.open('diff', `${process.execPath} ${CLI} diff`, {cwd: repo.dir, height: 20})
    await terminals.waitFor('diff', '+line 1')
    // less waits at its prompt: the rest is a page away.
    expect((await terminals.screen('diff')).at(-1)).toBe(':')
    expect((await terminals.screen('diff')).join('\n')).not.toContain('+line 80')
    await terminals.keys('diff', 'q')
    expect(await terminals.exitStatus('diff')).toBe(0)
  })
})
