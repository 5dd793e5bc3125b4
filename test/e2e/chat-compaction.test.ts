import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {CLI} from '../helpers/cli.js'
import {useChatTerminals} from '../helpers/terminal.js'

const REQUEST = 'read big.txt twice'

/**
 * Issue 41 item 4 in the chat, on a real terminal (tmux): a compaction says it is starting,
 * leaves a record of what it summarized and kept, and `/context` shows the summary apart from
 * what stayed verbatim. Each read of big.txt is about 1,000 estimated tokens: the second one
 * crosses 90% of `max_tokens: 3300`.
 */
describe('automatic compaction in the chat', () => {
  const chat = useChatTerminals('hanzo-chat-compact-')

  it('says it is compacting, then shows the record; /context shows the summary and the recent turns', async () => {
    writeFileSync(join(chat.project, 'big.txt'), `${'x'.repeat(79)}\n`.repeat(50))
    writeFileSync(
      join(chat.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
      JSON.stringify({max_tokens: 3300, reserve_recent: 1, sandbox: {mode: 'workspace'}}),
    )
    const read = {tool_calls: [{arguments: {path: 'big.txt'}, name: 'fs_read'}]}
    const model = chat.script('compact', [
      read,
      read,
      {expect: {system_contains: 'You compact the conversation'}, text: 'SUMMARY-OK: big.txt was read.'},
      {expect: {last_user_contains: REQUEST}, text: 'It holds 50 lines.'},
    ])
    await chat.terminals.open('chat', `node ${CLI} chat --fake-model ${model}`, {
      cwd: chat.project,
      height: 50,
      width: 250,
    })
    await chat.terminals.waitFor('chat', '/help for commands')
    await chat.terminals.keys('chat', REQUEST, 'Enter')
    const screen = (await chat.terminals.waitFor('chat', 'It holds 50 lines.')).join('\n')
    expect(screen).toMatch(/⏺ Compacting the conversation: [\d,]+ tokens of 3,300 \(\d+%\)…\n/)
    expect(screen).toMatch(
      /⏺ compacted the conversation: 2 earlier messages \(about [\d,]+ tokens\) summarized, about [\d,]+ tokens freed; kept verbatim: the system prompt with the project instructions \(AGENTS\.md\), the latest request, the last turn\n/,
    )
    expect(screen.indexOf('Compacting the conversation')).toBeLessThan(screen.indexOf('compacted the conversation'))

    await chat.terminals.keys('chat', '/context', 'Enter')
    const context = (await chat.terminals.waitFor('chat', 'compaction starts at 90%')).join('\n')
    expect(context).toMatch(/\d+ {2} {2}summary of the compacted conversation\n/)
    expect(context).toMatch(/\d+ {2} {2}the latest request, verbatim\n/)
    expect(context).toMatch(/[\d,]+ {2} {2}recent turns, verbatim \(\d+ messages\)\n/)
    expect(context).toMatch(/[\d,]+ {2}in all: \d+% of 3,300 \(max_tokens\); compaction starts at 90%/)
    await chat.terminals.keys('chat', 'C-c', 'C-c')
    expect(await chat.terminals.exitStatus('chat')).toBe(0)
  })

  it('says in the status line that a long conversation on a model of unknown context window gets no automatic compaction', async () => {
    writeFileSync(
      join(chat.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
      JSON.stringify({sandbox: {mode: 'workspace'}}),
    )
    const model = chat.script('unknown', [{text: 'Short.'}, {text: 'Long.', usage: {input_tokens: 40_000}}])
    await chat.terminals.open('unknown', `node ${CLI} chat --fake-model ${model}`, {cwd: chat.project, width: 120})
    await chat.terminals.waitFor('unknown', '/help for commands')
    await chat.terminals.keys('unknown', 'hello', 'Enter')
    const short = await chat.terminals.waitFor('unknown', 'Short.')
    expect(short.join('\n')).not.toContain('no auto-compaction')
    await chat.terminals.keys('unknown', 'and more', 'Enter')
    const screen = await chat.terminals.waitFor('unknown', 'no auto-compaction')
    expect(screen.findLast((line) => line.trim() !== '')).toMatch(/^fake-model · context 40k · no auto-compaction · /)
    await chat.terminals.keys('unknown', 'C-c', 'C-c')
    expect(await chat.terminals.exitStatus('unknown')).toBe(0)
  })
})
