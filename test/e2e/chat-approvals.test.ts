import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {CLI} from '../helpers/cli.js'
import {useChatTerminals} from '../helpers/terminal.js'

/** "Allow for this session" in the chat says what it allows, and `/permissions` lists and removes rules (tmux panes). */
describe('approvals in the chat', () => {
  const chat = useChatTerminals('hanzo-approvals-')

  const below = (screen: string[], marker: string) =>
    screen.slice(screen.findLastIndex((line) => line.startsWith(marker)))

  it('a on `ls -la` allows `ls *`, as the question says: `ls -R` runs unasked, `rm x` is asked; /permissions lists and removes', async () => {
    const userSettings = join(chat.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json')
    writeFileSync(
      userSettings,
      JSON.stringify({permissions: {'exec(git status*)': 'allow'}, sandbox: {mode: 'workspace'}}, null, 2),
    )
    const localSettings = join(chat.project, '.hanzo', 'settings.local.json')
    mkdirSync(join(chat.project, '.hanzo'), {recursive: true})
    writeFileSync(localSettings, JSON.stringify({model: 'fake-model', permissions: {'fs_read(secrets/**)': 'deny'}}))
    writeFileSync(join(chat.project, 'x'), 'keep me\n')
    const exec = (command: string) => ({tool_calls: [{arguments: {command}, name: 'exec'}]})
    const model = chat.script('approvals', [
      {expect: {last_user_contains: 'list the files'}, ...exec('ls -la')},
      {expect: {has_tool_result_for: 'exec'}, text: 'Listed them.'},
      {expect: {last_user_contains: 'recursively'}, ...exec('ls -R')},
      {expect: {tool_result_contains: '.:'}, text: 'Listed recursively.'},
      {expect: {last_user_contains: 'remove x'}, ...exec('rm x')},
      {expect: {has_tool_result_for: 'exec'}, text: 'I left x alone.'},
      {expect: {last_user_contains: 'once more'}, ...exec('ls -R')},
      {expect: {has_tool_result_for: 'exec'}, text: 'Listed once more.'},
    ])
    await chat.terminals.open('chat', `node ${CLI} chat --fake-model ${model}`, {cwd: chat.project, height: 50})
    await chat.terminals.waitFor('chat', '/help for commands')

    await chat.terminals.keys('chat', 'list the files', 'Enter')
    let screen = await chat.terminals.waitFor('chat', 'Allow exec: ls -la?')
    expect(screen.join('\n')).toContain('a allow `ls *` for this session')
    await chat.terminals.keys('chat', 'a')
    screen = await chat.terminals.waitFor('chat', 'Listed them.')
    expect(screen).toContain('  allowed `ls *` for this session')

    // Another ls runs without a question.
    await chat.terminals.keys('chat', 'list them recursively', 'Enter')
    screen = await chat.terminals.waitFor('chat', 'Listed recursively.')
    expect(below(screen, '› list them recursively').join('\n')).not.toContain('Allow exec')

    // Another program is asked about, offering only itself.
    await chat.terminals.keys('chat', 'remove x', 'Enter')
    screen = await chat.terminals.waitFor('chat', 'Allow exec: rm x?')
    expect(screen.join('\n')).toContain('a allow this exact command for this session')
    await chat.terminals.keys('chat', 'n')
    await chat.terminals.waitFor('chat', 'Reason (optional')
    await chat.terminals.keys('chat', 'Enter')
    await chat.terminals.waitFor('chat', 'I left x alone.')
    expect(readFileSync(join(chat.project, 'x'), 'utf8')).toBe('keep me\n')

    // The session's approval first, then the saved rules with their files (local before user).
    await chat.terminals.keys('chat', '/permissions', 'Enter')
    screen = await chat.terminals.waitFor('chat', '/permissions remove N')
    const listing = below(screen, '› /permissions')
    expect(listing.slice(0, 10)).toEqual([
      '› /permissions',
      'Permission mode: prompt (--permission-mode sets it; deny rules apply in every mode)',
      '',
      'Allowed for this session (answer a question with a):',
      '    1  exec  ls *',
      '',
      'Saved rules (in each file the first match wins; a deny in any file wins):',
      '    2  deny    fs_read(secrets/**)  .hanzo/settings.local.json',
      `    3  allow   exec(git status*)    ${userSettings}`,
      '',
    ])

    // A saved rule comes out of its file, the rest of the file kept.
    await chat.terminals.keys('chat', '/permissions rm 2', 'Enter')
    await chat.terminals.waitFor('chat', 'Removed "fs_read(secrets/**)": deny from .hanzo/settings.local.json.')
    expect(JSON.parse(readFileSync(localSettings, 'utf8'))).toEqual({model: 'fake-model'})

    // A number that is not in the list is an error line, not a stack.
    await chat.terminals.keys('chat', '/permissions remove 7', 'Enter')
    await chat.terminals.waitFor('chat', '✗ There is no rule 7: /permissions numbers them 1 to 2')

    // The session's approval comes out too: ls is asked about again.
    await chat.terminals.keys('chat', '/permissions remove 1', 'Enter')
    await chat.terminals.waitFor('chat', 'Removed from this session: exec ls *. It is asked about again.')
    await chat.terminals.keys('chat', 'list once more', 'Enter')
    await chat.terminals.waitFor('chat', 'Allow exec: ls -R?')
    await chat.terminals.keys('chat', 'y')
    await chat.terminals.waitFor('chat', 'Listed once more.')
    await chat.terminals.keys('chat', '/permissions', 'Enter')
    screen = await chat.terminals.waitFor('chat', '    1  allow   exec(git status*)')
    expect(below(screen, '› /permissions')).toContain('  none yet')

    await chat.terminals.keys('chat', 'C-d')
    expect(await chat.terminals.exitStatus('chat')).toBe(0)
  })
})
