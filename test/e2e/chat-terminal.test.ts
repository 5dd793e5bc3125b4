import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {CLI, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js'
import {Terminals} from '../helpers/terminal.js'

/** The interactive session in real terminals (tmux panes): what the screen shows is asserted. */
describe('hanzo-dev chat on a terminal', () => {
  let box: Sandbox
  let project: string
  let terminals: Terminals

  beforeAll(() => {
    box = makeSandbox('hanzo-chat-')
    project = join(box.home, 'project')
    mkdirSync(project)
    mkdirSync(join(box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'), JSON.stringify({sandbox: {mode: 'workspace'}}))
    terminals = Terminals.create(Object.fromEntries(Object.entries(box.env).filter(([key]) => key !== 'NO_COLOR')))
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

  const below = (screen: string[], marker: string) => screen.slice(screen.findLastIndex((line) => line.startsWith(marker)))

  it('streams answers, asks in place with the diff, interrupts with Esc, keeps the conversation going, exits on Ctrl-D', async () => {
    const model = script('main', [
      {expect: {last_user_contains: 'write the greeting'}, text: 'I will write it.', tool_calls: [{arguments: {content: 'hello\n', path: 'greeting.txt'}, name: 'fs_write'}]},
      {expect: {has_tool_result_for: 'fs_write'}, text: 'Wrote **greeting.txt**.'},
      {expect: {last_user_contains: 'remove it'}, tool_calls: [{arguments: {command: 'rm greeting.txt'}, name: 'exec'}]},
      {expect: {has_tool_result_for: 'exec'}, text: 'Understood, I left it.'},
      {delay_ms: 20_000, text: 'too late'},
      {expect: {last_user_contains: 'line one\nline two'}, text: 'Both lines arrived.'},
    ])
    await terminals.open('chat', `node ${CLI} chat --fake-model ${model}`, {cwd: project, height: 40})
    await terminals.waitFor('chat', '/help for commands')
    await terminals.keys('chat', 'write the greeting', 'Enter')
    let screen = await terminals.waitFor('chat', 'Allow fs_write: greeting.txt?')
    expect(below(screen, '› write the greeting').slice(0, 6)).toEqual(['› write the greeting', 'I will write it.', '⏺ fs_write greeting.txt', '  new file, 1 line:', '  +hello', 'Allow fs_write: greeting.txt?'])
    await terminals.keys('chat', 'y')
    // The answer is markdown: the screen shows it rendered, without its markers.
    await terminals.waitFor('chat', 'Wrote greeting.txt.')
    expect(readFileSync(join(project, 'greeting.txt'), 'utf8')).toBe('hello\n')

    // A denial with a reason: the model is told, the file stays.
    await terminals.keys('chat', 'now remove it', 'Enter')
    await terminals.waitFor('chat', 'Allow exec: rm greeting.txt?')
    await terminals.keys('chat', 'n')
    await terminals.waitFor('chat', 'Reason (optional')
    await terminals.keys('chat', 'keep it', 'Enter')
    screen = await terminals.waitFor('chat', 'Understood, I left it.')
    expect(below(screen, '› now remove it')).toContain('  denied')
    expect(readFileSync(join(project, 'greeting.txt'), 'utf8')).toBe('hello\n')

    // Esc stops a turn that waits on the model; the next prompt goes on (and `\` Enter adds a line).
    await terminals.keys('chat', 'take your time', 'Enter')
    await terminals.waitFor('chat', 'Thinking…')
    await terminals.keys('chat', 'Escape')
    await terminals.waitFor('chat', 'Interrupted: the turn was stopped')
    await terminals.keys('chat', 'line one\\', 'Enter', 'line two', 'Enter')
    screen = await terminals.waitFor('chat', 'Both lines arrived.')
    expect(below(screen, '› line one').slice(0, 3)).toEqual(['› line one', '  line two', 'Both lines arrived.'])

    // Up recalls the last prompt; Ctrl-C clears it; Ctrl-D on the empty prompt exits.
    await terminals.keys('chat', 'Up')
    await terminals.waitFor('chat', '  line two\n')
    await terminals.keys('chat', 'C-c', 'C-d')
    expect(await terminals.exitStatus('chat')).toBe(0)
  })

  it('edits the prompt in vim mode, knows its slash commands, and --continue shows the conversation so far', async () => {
    const model = script('vim', [{expect: {last_user_contains: 'bye world'}, text: 'Vim edit received.'}])
    await terminals.open('vim', `HANZO_INPUT_MODE=vim node ${CLI} chat --fake-model ${model}`, {cwd: project})
    await terminals.waitFor('vim', '-- INSERT --')
    await terminals.keys('vim', 'hello world', 'Escape', '0', 'c', 'w', 'bye', 'Escape')
    await terminals.waitFor('vim', '› bye world')
    await terminals.keys('vim', 'Enter')
    await terminals.waitFor('vim', 'Vim edit received.')
    // After a submit the prompt is empty and in Insert mode again.
    await terminals.keys('vim', '/stauts', 'Enter')
    await terminals.waitFor('vim', 'Unknown command /stauts. Did you mean /status?')
    await terminals.keys('vim', 'Escape', ':', 'q', 'Enter')
    expect(await terminals.exitStatus('vim')).toBe(0)

    const next = script('continued', [{expect: {last_user_contains: 'and now?'}, text: 'Carrying on.'}])
    await terminals.open('again', `node ${CLI} chat --continue --fake-model ${next} "and now?"`, {cwd: project})
    const screen = await terminals.waitFor('again', 'Carrying on.')
    const shown = screen.join('\n')
    expect(shown).toContain('Vim edit received.')
    expect(shown.indexOf('Vim edit received.')).toBeLessThan(shown.indexOf('Carrying on.'))
    await terminals.keys('again', 'C-c', 'C-c')
    expect(await terminals.exitStatus('again')).toBe(0)
  })

  it("runs the plugins' slash commands: /diff adds the change to the next prompt, /commit commits with the model's message; /init writes AGENTS.md, once", async () => {
    const repo = join(box.home, 'repo')
    mkdirSync(repo)
    const identity = {GIT_AUTHOR_EMAIL: 't@example.com', GIT_AUTHOR_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T'}
    const git = (...args: string[]) => execFileSync('git', args, {cwd: repo, encoding: 'utf8', env: {...process.env, ...box.env, ...identity}}).trim()
    git('init', '--quiet', '--initial-branch=main')
    writeFileSync(join(repo, 'README.md'), 'hello\n')
    git('add', 'README.md')
    git('commit', '--quiet', '-m', 'first')
    writeFileSync(join(repo, 'README.md'), 'hello\nworld\n')
    const model = script('diff', [
      {expect: {last_user_contains: '+world'}, text: 'The README gained a line.'},
      {expect: {system_contains: 'Conventional Commits'}, text: 'docs(readme): add a second line'},
    ])
    const exported = Object.entries(identity).map(([key, value]) => `${key}=${value}`).join(' ')
    await terminals.open('slash', `${exported} node ${CLI} chat --fake-model ${model}`, {cwd: repo})
    await terminals.waitFor('slash', '/help for commands')
    await terminals.keys('slash', '/diff', 'Enter')
    let screen = await terminals.waitFor('slash', 'added as context for your next prompt')
    expect(below(screen, '› /diff').slice(0, 3)).toEqual(['› /diff', '1 file(s) changed, +1 -0; added as context for your next prompt:', '  M README.md +1 -0'])
    await terminals.keys('slash', 'what changed?', 'Enter')
    await terminals.waitFor('slash', 'The README gained a line.')
    await terminals.keys('slash', '/commit', 'Enter')
    screen = await terminals.waitFor('slash', '] docs(readme): add a second line')
    expect(git('log', '-1', '--format=%s')).toBe('docs(readme): add a second line')
    expect(below(screen, '› /commit').slice(0, 3)).toEqual(['› /commit', `Committed [main ${git('rev-parse', '--short=7', 'HEAD')}] docs(readme): add a second line`, '1 file(s) changed'])

    await terminals.keys('slash', '/init', 'Enter')
    await terminals.waitFor('slash', `Wrote ${join(repo, 'AGENTS.md')}`)
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toMatch(/^# repo\n/)
    await terminals.keys('slash', '/init', 'Enter')
    screen = await terminals.waitFor('slash', 'AGENTS.md exists already (/init --force replaces it)')
    await terminals.keys('slash', 'C-d')
    expect(await terminals.exitStatus('slash')).toBe(0)
    expect(existsSync(join(repo, 'AGENTS.md'))).toBe(true)
  })

  it('refuses to start off a terminal, saying what to use instead', async () => {
    const result = await runCli(['chat'], {cwd: project, env: box.env, input: ''})
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('The interactive session needs a terminal')
    expect(result.stderr).toContain('hanzo-dev run')
  })
})
