import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {CLI} from '../helpers/cli.js'
import {useChatTerminals} from '../helpers/terminal.js'

/** `/context` on a real terminal: the system prompt's sections and the tool schemas, in tokens. */
describe('/context', () => {
  const chat = useChatTerminals('hanzo-context-')

  it('shows each section of the system prompt and the tool schemas with their size in tokens', async () => {
    writeFileSync(join(chat.project, 'AGENTS.md'), `${'Run the tests. '.repeat(40)}\n`)
    const model = chat.script('context', [{text: 'unused'}])
    await chat.terminals.open('chat', `node ${CLI} chat --fake-model ${model}`, {cwd: chat.project, height: 40})
    await chat.terminals.waitFor('chat', '/help for commands')
    await chat.terminals.keys('chat', '/context', 'Enter')
    const screen = (await chat.terminals.waitFor('chat', 'before the conversation')).join('\n')
    expect(screen).toContain('Context in estimated tokens (4 bytes a token):')
    for (const section of ['hanzo-dev', 'Using the tools', 'Safety', 'Environment'])
      expect(screen).toMatch(new RegExp(`\\d+    ${section}\\n`))
    // 600 bytes of AGENTS.md and its heading: 150 tokens and the heading's.
    expect(screen).toMatch(/ 15\d {4}Project instructions \(AGENTS\.md\)/)
    expect(screen).toMatch(/[\d,]+ {2}system prompt\n/)
    expect(screen).toMatch(/[\d,]+ {2}tool schemas \(\d+ tools\)\n/)
    await chat.terminals.keys('chat', 'C-c', 'C-c')
    expect(await chat.terminals.exitStatus('chat')).toBe(0)
  })
})
