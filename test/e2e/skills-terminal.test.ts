import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {CLI} from '../helpers/cli.js'
import {useChatTerminals} from '../helpers/terminal.js'

/** `/skills` in a real terminal (tmux): the skills the model may load, and where each comes from. */
describe('/skills in the chat', () => {
  const chat = useChatTerminals('hanzo-skills-chat-')

  it('lists each skill with its description and its source', async () => {
    const skills = join(chat.box.env.XDG_CONFIG_HOME, 'hanzo', 'skills')
    for (const [name, description] of [
      ['pdf', 'Fill PDF forms'],
      ['changelog', 'Write the changelog entry'],
    ]) {
      mkdirSync(join(skills, name), {recursive: true})
      writeFileSync(join(skills, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nBody.\n`)
    }

    const model = chat.script('skills', [{text: 'Hi.'}])
    await chat.terminals.open('skills', `node ${CLI} chat --fake-model ${model}`, {cwd: chat.project, width: 100})
    await chat.terminals.waitFor('skills', '/help for commands')
    await chat.terminals.keys('skills', '/skills', 'Enter')
    const screen = await chat.terminals.waitFor('skills', 'Fill PDF forms (user)')
    expect(screen).toContain('  changelog  Write the changelog entry (user)')
    expect(screen).toContain('  pdf        Fill PDF forms (user)')
    await chat.terminals.keys('skills', 'C-d')
    expect(await chat.terminals.exitStatus('skills')).toBe(0)
  })
})
