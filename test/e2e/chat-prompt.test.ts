import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {CLI, runCli} from '../helpers/cli.js'
import {useChatTerminals} from '../helpers/terminal.js'

/** The prompt as a Claude Code user expects it, in real terminals (tmux): what the screen shows is asserted. */
describe('the chat prompt on a terminal', () => {
  const chat = useChatTerminals('hanzo-prompt-')
  const {script} = chat

  it('takes a paste as one prompt (a long one as a placeholder), cycles modes with Shift+Tab, and carries out an approved plan', async () => {
    const long = Array.from({length: 12}, (_, index) => `line ${index + 1}`).join('\n')
    const model = script('paste', [
      {expect: {last_user_contains: 'alpha\nbeta\ngamma'}, text: 'Three lines, one prompt.'},
      {expect: {last_user_contains: 'line 1\nline 2'}, text: 'The long paste arrived whole.'},
      {
        expect: {
          last_user_contains: 'Plan mode',
          tools_exclude: ['fs_write', 'fs_edit', 'exec'],
          tools_include: ['fs_read'],
        },
        text: '1. Write notes.txt with the word done.',
      },
      {
        expect: {last_user_contains: 'The plan is approved', tools_include: ['fs_write']},
        tool_calls: [{arguments: {content: 'done\n', path: 'notes.txt'}, name: 'fs_write'}],
      },
      {expect: {has_tool_result_for: 'fs_write'}, text: 'Carried out.'},
    ])
    await chat.terminals.open('paste', `node ${CLI} chat --fake-model ${model}`, {cwd: chat.project, height: 40})
    await chat.terminals.waitFor('paste', '/help for commands')

    // Three pasted lines stay in the prompt (no line is sent by its line break) until Enter.
    await chat.terminals.paste('paste', 'alpha\nbeta\ngamma')
    await chat.terminals.waitFor('paste', '› alpha\n  beta\n  gamma')
    await chat.terminals.keys('paste', 'Enter')
    await chat.terminals.waitFor('paste', 'Three lines, one prompt.')

    await chat.terminals.paste('paste', long)
    let screen = await chat.terminals.waitFor('paste', '› [Pasted text #1 +12 lines]')
    expect(screen.join('\n')).not.toContain('line 12')
    await chat.terminals.keys('paste', 'Enter')
    await chat.terminals.waitFor('paste', 'The long paste arrived whole.')

    // Shift+Tab: default -> accept edits -> plan.
    await chat.terminals.keys('paste', 'BTab')
    await chat.terminals.waitFor('paste', '⏵⏵ accept edits on')
    await chat.terminals.keys('paste', 'BTab')
    await chat.terminals.waitFor('paste', '⏸ plan mode on')
    await chat.terminals.keys('paste', 'write the notes', 'Enter')
    await chat.terminals.waitFor('paste', 'Carry out this plan?')
    await chat.terminals.keys('paste', 'y')
    // Approved with accept-edits: the edit inside the workspace runs without a question.
    screen = await chat.terminals.waitFor('paste', 'Carried out.')
    expect(screen.join('\n')).not.toContain('Allow fs_write')
    expect(screen.join('\n')).toContain('⏵⏵ accept edits on')
    expect(readFileSync(join(chat.project, 'notes.txt'), 'utf8')).toBe('done\n')
    await chat.terminals.keys('paste', 'C-d')
    expect(await chat.terminals.exitStatus('paste')).toBe(0)
  })

  it('filters the command menu as you type (Tab completes), runs command files (project ones once trusted), saves # notes and lists it all in /help', async () => {
    const {env} = chat.box
    const userCommands = join(env.XDG_CONFIG_HOME, 'hanzo', 'commands')
    mkdirSync(userCommands, {recursive: true})
    writeFileSync(
      join(userCommands, 'greet.md'),
      '---\ndescription: Greet someone by name\nargument-hint: NAME\n---\nSay hello to $ARGUMENTS.\n',
    )
    const project = join(chat.box.home, 'commands-project')
    mkdirSync(join(project, '.hanzo', 'commands'), {recursive: true})
    writeFileSync(
      join(project, '.hanzo', 'commands', 'review.md'),
      '---\ndescription: Review the change\nallowed-tools: Read, Grep\n---\nReview the change.\n',
    )
    const model = script('menu', [{expect: {last_user_contains: 'Say hello to Ada.'}, text: 'Hello, Ada.'}])
    await chat.terminals.open('menu', `node ${CLI} chat --fake-model ${model}`, {cwd: project, height: 40})
    // The project's command file waits for trust, and the start says so.
    await chat.terminals.waitFor('menu', 'ignored: 1 command file in')
    await chat.terminals.keys('menu', '/gr')
    let screen = await chat.terminals.waitFor('menu', '/greet NAME')
    expect(screen.join('\n')).toContain('Greet someone by name')
    await chat.terminals.keys('menu', 'Tab')
    await chat.terminals.waitFor('menu', '› /greet\nfake-model')
    await chat.terminals.keys('menu', 'Ada', 'Enter')
    await chat.terminals.waitFor('menu', 'Hello, Ada.')
    await chat.terminals.keys('menu', '/review', 'Enter')
    await chat.terminals.waitFor('menu', 'Unknown command /review')

    // `#`: a note for memory, the file picked with one key.
    await chat.terminals.keys('menu', '# run the linter before committing', 'Enter')
    await chat.terminals.waitFor('menu', 'Save this note to')
    await chat.terminals.keys('menu', '1')
    await chat.terminals.waitFor('menu', 'Saved to project memory (AGENTS.md)')
    expect(readFileSync(join(project, 'AGENTS.md'), 'utf8')).toBe('- run the linter before committing\n')

    await chat.terminals.keys('menu', '/help', 'Enter')
    screen = await chat.terminals.waitFor('menu', 'Shift+Tab')
    const help = screen.join('\n')
    for (const shown of ['/greet NAME', '@path', '!command', '# note', 'plan (read-only tools'])
      expect(help).toContain(shown)
    await chat.terminals.keys('menu', 'C-d')
    expect(await chat.terminals.exitStatus('menu')).toBe(0)

    // Trusted, the project's command runs, offered only the tools it names.
    expect((await runCli(['trust', '--yes'], {cwd: project, env})).exitCode).toBe(0)
    const reviewer = script('review', [
      {
        expect: {
          last_user_contains: 'Review the change.',
          tools_exclude: ['exec', 'fs_write'],
          tools_include: ['fs_grep'],
        },
        text: 'Reviewed.',
      },
    ])
    await chat.terminals.open('trusted', `node ${CLI} chat --fake-model ${reviewer}`, {cwd: project, height: 40})
    await chat.terminals.waitFor('trusted', '/help for commands')
    await chat.terminals.keys('trusted', '/review', 'Enter')
    await chat.terminals.waitFor('trusted', 'Reviewed.')
    await chat.terminals.keys('trusted', 'C-d')
    expect(await chat.terminals.exitStatus('trusted')).toBe(0)
    expect(existsSync(join(project, 'AGENTS.md'))).toBe(true)
  })
})
