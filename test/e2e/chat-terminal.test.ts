import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {CLI, runCli} from '../helpers/cli.js'
import {useChatTerminals} from '../helpers/terminal.js'

/** The interactive session in real terminals (tmux panes): what the screen shows is asserted. */
describe('hanzo-dev chat on a terminal', () => {
  const chat = useChatTerminals('hanzo-chat-')
  const {script} = chat

  const below = (screen: string[], marker: string) =>
    screen.slice(screen.findLastIndex((line) => line.startsWith(marker)))

  it('streams answers, asks in place with the diff, interrupts with Esc (a queued prompt comes back to edit), keeps the conversation going, exits on Ctrl-D', async () => {
    const model = script('main', [
      {
        delay_ms: 300,
        expect: {last_user_contains: 'write the greeting'},
        text: 'I will write it.',
        tool_calls: [{arguments: {content: 'hello\n', path: 'greeting.txt'}, name: 'fs_write'}],
      },
      {expect: {has_tool_result_for: 'fs_write'}, text: 'Wrote **greeting.txt**.'},
      {
        expect: {last_user_contains: 'remove it'},
        tool_calls: [{arguments: {command: 'rm greeting.txt'}, name: 'exec'}],
      },
      {expect: {has_tool_result_for: 'exec'}, text: 'Understood, I left it.'},
      {delay_ms: 20_000, text: 'too late'},
      {expect: {last_user_contains: 'line one\nline two'}, text: 'Both lines arrived.'},
    ])
    await chat.terminals.open('chat', `node ${CLI} chat --fake-model ${model}`, {cwd: chat.project, height: 40})
    await chat.terminals.waitFor('chat', '/help for commands')
    // The next prompt is typed while the model works: when the question comes, its letters stay
    // in the prompt (the `n` of "now" is no denial), and Enter queues it.
    await chat.terminals.keys('chat', 'write the greeting', 'Enter')
    await chat.terminals.keys('chat', 'now remove it')
    let screen = await chat.terminals.waitFor('chat', 'Allow fs_write: greeting.txt?')
    expect(below(screen, '› write the greeting').slice(0, 6)).toEqual([
      '› write the greeting',
      'I will write it.',
      '⏺ fs_write greeting.txt',
      '  new file, 1 line:',
      '  +hello',
      'Allow fs_write: greeting.txt?',
    ])
    expect(screen).toContain('› now remove it')
    await chat.terminals.keys('chat', 'Enter')
    await chat.terminals.waitFor('chat', 'Queued: now remove it')
    await chat.terminals.keys('chat', 'y')
    // The answer is markdown: the screen shows it rendered, without its markers.
    await chat.terminals.waitFor('chat', 'Wrote greeting.txt.')
    expect(readFileSync(join(chat.project, 'greeting.txt'), 'utf8')).toBe('hello\n')

    // The queued prompt goes next. A denial with a reason: the model is told, the file stays.
    await chat.terminals.waitFor('chat', 'Allow exec: rm greeting.txt?')
    await chat.terminals.keys('chat', 'n')
    await chat.terminals.waitFor('chat', 'Reason (optional')
    await chat.terminals.keys('chat', 'keep it', 'Enter')
    screen = await chat.terminals.waitFor('chat', 'Understood, I left it.')
    expect(below(screen, '› now remove it')).toContain('  denied')
    expect(readFileSync(join(chat.project, 'greeting.txt'), 'utf8')).toBe('hello\n')

    // Esc stops a turn that waits on the model; the next prompt goes on (and `\` Enter adds a line).
    await chat.terminals.keys('chat', 'take your time', 'Enter')
    await chat.terminals.waitFor('chat', 'Thinking…')
    // A prompt sent while it runs is queued; Esc stops the turn and brings the queued prompt back to edit.
    await chat.terminals.keys('chat', 'line one\\', 'Enter', 'line two', 'Enter')
    await chat.terminals.waitFor('chat', 'Queued: line one ⏎ line two')
    await chat.terminals.keys('chat', 'Escape')
    await chat.terminals.waitFor('chat', 'Interrupted: the turn was stopped')
    screen = await chat.terminals.waitFor('chat', '› line one\n  line two')
    expect(screen.filter((line) => line.startsWith('› line one'))).toHaveLength(1)
    expect(screen.join('\n')).not.toContain('Queued:')
    await chat.terminals.keys('chat', 'Enter')
    screen = await chat.terminals.waitFor('chat', 'Both lines arrived.')
    expect(below(screen, '› line one').slice(0, 3)).toEqual(['› line one', '  line two', 'Both lines arrived.'])

    // Up recalls the last prompt; Ctrl-C clears it; Ctrl-D on the empty prompt exits.
    await chat.terminals.keys('chat', 'Up')
    await chat.terminals.waitFor('chat', '  line two\nfake-model · ')
    await chat.terminals.keys('chat', 'C-c', 'C-d')
    expect(await chat.terminals.exitStatus('chat')).toBe(0)
  })

  it('edits the prompt in vim mode, knows its slash commands, and --continue shows the conversation so far', async () => {
    const model = script('vim', [{expect: {last_user_contains: 'bye world'}, text: 'Vim edit received.'}])
    await chat.terminals.open('vim', `HANZO_INPUT_MODE=vim node ${CLI} chat --fake-model ${model}`, {cwd: chat.project})
    await chat.terminals.waitFor('vim', '-- INSERT --')
    await chat.terminals.keys('vim', 'hello world', 'Escape', '0', 'c', 'w', 'bye', 'Escape')
    await chat.terminals.waitFor('vim', '› bye world')
    await chat.terminals.keys('vim', 'Enter')
    await chat.terminals.waitFor('vim', 'Vim edit received.')
    // After a submit the prompt is empty and in Insert mode again.
    await chat.terminals.keys('vim', '/stauts', 'Enter')
    await chat.terminals.waitFor('vim', 'Unknown command /stauts. Did you mean /status?')
    await chat.terminals.keys('vim', 'Escape', ':', 'q', 'Enter')
    expect(await chat.terminals.exitStatus('vim')).toBe(0)

    const next = script('continued', [{expect: {last_user_contains: 'and now?'}, text: 'Carrying on.'}])
    await chat.terminals.open('again', `node ${CLI} chat --continue --fake-model ${next} "and now?"`, {
      cwd: chat.project,
    })
    const screen = await chat.terminals.waitFor('again', 'Carrying on.')
    const shown = screen.join('\n')
    expect(shown).toContain('Vim edit received.')
    expect(shown.indexOf('Vim edit received.')).toBeLessThan(shown.indexOf('Carrying on.'))
    await chat.terminals.keys('again', 'C-c', 'C-c')
    expect(await chat.terminals.exitStatus('again')).toBe(0)
  })

  it("runs the plugins' slash commands: /diff adds the change to the next prompt, /commit commits with the model's message; /init has the model write AGENTS.md, its diff asked about", async () => {
    const repo = join(chat.box.home, 'repo')
    mkdirSync(repo)
    const identity = {
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_AUTHOR_NAME: 'T',
      GIT_COMMITTER_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 'T',
    }
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: repo,
        encoding: 'utf8',
        env: {...process.env, ...chat.box.env, ...identity},
      }).trim()
    git('init', '--quiet', '--initial-branch=main')
    writeFileSync(join(repo, 'README.md'), 'hello\n')
    git('add', 'README.md')
    git('commit', '--quiet', '-m', 'first')
    writeFileSync(join(repo, 'README.md'), 'hello\nworld\n')
    const model = script('diff', [
      {expect: {last_user_contains: '+world'}, text: 'The README gained a line.'},
      {expect: {system_contains: 'Conventional Commits'}, text: 'docs(readme): add a second line'},
      {
        expect: {last_user_contains: 'write AGENTS.md at its root'},
        tool_calls: [{arguments: {content: '# repo\n\nTest: npm test\n', path: 'AGENTS.md'}, name: 'fs_write'}],
      },
      {expect: {has_tool_result_for: 'fs_write'}, text: 'Wrote AGENTS.md: the test command.'},
    ])
    const exported = Object.entries(identity)
      .map(([key, value]) => `${key}=${value}`)
      .join(' ')
    await chat.terminals.open('slash', `${exported} node ${CLI} chat --fake-model ${model}`, {cwd: repo})
    await chat.terminals.waitFor('slash', '/help for commands')
    await chat.terminals.keys('slash', '/diff', 'Enter')
    let screen = await chat.terminals.waitFor('slash', 'added as context for your next prompt')
    expect(below(screen, '› /diff').slice(0, 3)).toEqual([
      '› /diff',
      '1 file(s) changed, +1 -0; added as context for your next prompt:',
      '  M README.md +1 -0',
    ])
    await chat.terminals.keys('slash', 'what changed?', 'Enter')
    await chat.terminals.waitFor('slash', 'The README gained a line.')
    await chat.terminals.keys('slash', '/commit', 'Enter')
    screen = await chat.terminals.waitFor('slash', '] docs(readme): add a second line')
    expect(git('log', '-1', '--format=%s')).toBe('docs(readme): add a second line')
    expect(below(screen, '› /commit').slice(0, 3)).toEqual([
      '› /commit',
      `Committed [main ${git('rev-parse', '--short=7', 'HEAD')}] docs(readme): add a second line`,
      '1 file(s) changed',
    ])

    // /init: the model studies the repository and writes AGENTS.md; the diff is shown before it is written.
    await chat.terminals.keys('slash', '/init', 'Enter')
    screen = await chat.terminals.waitFor('slash', 'Allow fs_write: AGENTS.md?')
    expect(screen.join('\n')).toContain('+Test: npm test')
    expect(existsSync(join(repo, 'AGENTS.md'))).toBe(false)
    await chat.terminals.keys('slash', 'y')
    await chat.terminals.waitFor('slash', 'Wrote AGENTS.md: the test command.')
    expect(readFileSync(join(repo, 'AGENTS.md'), 'utf8')).toBe('# repo\n\nTest: npm test\n')
    await chat.terminals.keys('slash', 'C-d')
    expect(await chat.terminals.exitStatus('slash')).toBe(0)
    expect(existsSync(join(repo, 'AGENTS.md'))).toBe(true)
  })

  it('ends with the reason, under the banner and without a prompt, when the session cannot open', async () => {
    await chat.terminals.open('broken', `node ${CLI} chat --fake-model ${join(chat.box.home, 'missing.json')}`, {
      cwd: chat.project,
    })
    expect(await chat.terminals.exitStatus('broken')).toBe(2)
    const screen = (await chat.terminals.screen('broken')).filter((line) => line.trim() !== '')
    expect(screen.slice(0, 2)).toEqual([
      'hanzo-dev · ~/project',
      '/help for commands · Esc interrupts · Ctrl-C twice exits',
    ])
    expect(screen.slice(2).join(' ')).toMatch(/Error: .*missing\.json: ENOENT/)
    expect(screen.some((line) => line.startsWith('›'))).toBe(false)
  })

  it('refuses to start off a terminal, saying what to use instead', async () => {
    const result = await runCli(['chat'], {cwd: chat.project, env: chat.box.env, input: ''})
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('The interactive session needs a terminal')
    expect(result.stderr).toContain('hanzo-dev run')
  })
})
