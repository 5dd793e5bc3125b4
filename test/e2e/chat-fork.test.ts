import {createHash} from 'node:crypto'
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {CLI, runCli} from '../helpers/cli.js'
import {useChatTerminals} from '../helpers/terminal.js'

/** `/fork` on a real terminal: what the screen says, and what lands in which saved file. */
describe('hanzo-dev chat: /fork', () => {
  const chat = useChatTerminals('hanzo-chat-fork-')
  const cli = (args: string[]) => runCli(args, {cwd: chat.project, env: chat.box.env})
  const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')

  it('goes on in a new session from a copy of the conversation, the resumed one left byte-identical', async () => {
    writeFileSync(join(chat.project, 'greeting.txt'), 'hello world\n')
    const first = chat.script('first', [
      {tool_calls: [{arguments: {path: 'greeting.txt'}, name: 'fs_read'}]},
      {text: 'It says hello world.'},
    ])
    const ran = await cli(['run', 'read greeting.txt', '--fake-model', first, '--permission-mode', 'allow-reads'])
    expect(ran.exitCode, ran.stderr).toBe(0)
    const original = (
      JSON.parse((await cli(['sessions', 'list', '--json'])).stdout) as {sessions: {id: string; path: string}[]}
    ).sessions[0]
    const before = digest(original.path)

    // The fork's request must carry the resumed conversation: the greeting's tool result, then the new prompt.
    const next = chat.script('next', [
      {expect: {last_user_contains: 'which word', tool_result_contains: 'hello world'}, text: 'The word was hello.'},
    ])
    await chat.terminals.open('fork', `node ${CLI} chat --resume ${original.id} --fake-model ${next}`, {
      cwd: chat.project,
    })
    await chat.terminals.waitFor('fork', '/help for commands')
    await chat.terminals.keys('fork', '/fork', 'Enter')
    const forked = (await chat.terminals.waitFor('fork', 'Forked session ')).join('\n')
    const [, forkId, fromId] = /Forked session ([\da-f-]{36}) from ([\da-f-]{36})/.exec(forked.replaceAll('\n', ''))!
    expect(fromId).toBe(original.id)
    expect(forkId).not.toBe(original.id)
    await chat.terminals.keys('fork', 'which word?', 'Enter')
    await chat.terminals.waitFor('fork', 'The word was hello.')
    await chat.terminals.keys('fork', 'C-d')
    expect(await chat.terminals.exitStatus('fork')).toBe(0)

    expect(digest(original.path)).toBe(before)
    const shown = await cli(['sessions', 'show', forkId, '--json'])
    expect(JSON.parse(shown.stdout)).toMatchObject({forked_from: original.id, first_prompt: 'which word?'})
    expect(shown.stdout).toContain('read greeting.txt')
    const listed = await cli(['sessions', 'list', '--json'])
    expect(JSON.parse(listed.stdout).sessions.map((s: {id: string}) => s.id)).toEqual([forkId, original.id])
  })

  it('says there is nothing to fork before the first prompt is saved', async () => {
    await chat.terminals.open('empty', `node ${CLI} chat --fake-model ${chat.script('empty', [])}`, {cwd: chat.project})
    await chat.terminals.waitFor('empty', '/help for commands')
    await chat.terminals.keys('empty', '/fork', 'Enter')
    await chat.terminals.waitFor('empty', 'Nothing to fork yet')
    await chat.terminals.keys('empty', 'C-d')
    expect(await chat.terminals.exitStatus('empty')).toBe(0)
  })
})
