import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {CLI, makeSandbox, type Sandbox} from '../helpers/cli.js'
import {Terminals} from '../helpers/terminal.js'

/** `@file` mentions (Tab completes them) and `!command` lines in the interactive session, on a real terminal. */
describe('hanzo-dev chat: @ mentions and ! commands', () => {
  let box: Sandbox
  let project: string
  let terminals: Terminals

  beforeAll(() => {
    box = makeSandbox('hanzo-chat-attach-')
    project = join(box.home, 'project')
    mkdirSync(join(project, 'src'), {recursive: true})
    mkdirSync(join(project, 'dist'))
    writeFileSync(join(project, 'src', 'greeting-util.ts'), 'export const hi = 1\n')
    writeFileSync(join(project, 'dist', 'greeting-built.js'), 'built\n')
    writeFileSync(join(project, '.gitignore'), 'dist/\n')
    terminals = Terminals.create(box.env)
  })
  afterAll(async () => {
    await terminals.close()
    box.cleanup()
  })

  it('attaches a Tab-completed file, says which could not be, and sends a ! command output with the next prompt; a prompt sent meanwhile waits its turn', async () => {
    const file = join(box.home, 'attach.json')
    const turns: Script['turns'] = [
      {expect: {last_user_contains: 'export const hi = 1'}, text: 'It exports hi.'},
      {expect: {last_user_contains: 'shell-said-hi'}, text: 'The shell said hi.'},
    ]
    writeFileSync(file, JSON.stringify({model: 'fake-model', turns}))
    await terminals.open('attach', `node ${CLI} chat --fake-model ${file}`, {cwd: project, height: 40})
    await terminals.waitFor('attach', '/help for commands')

    // One directory matches `sr`, then one file matches `gre` (dist/ is ignored by .gitignore).
    await terminals.keys('attach', 'explain @sr', 'Tab')
    await terminals.waitFor('attach', '› explain @src/')
    await terminals.keys('attach', 'gre', 'Tab')
    await terminals.waitFor('attach', '› explain @src/greeting-util.ts')
    await terminals.keys('attach', ' and @missing.md', 'Enter')
    const screen = await terminals.waitFor('attach', 'It exports hi.')
    expect(screen).toContain('Attached src/greeting-util.ts')
    expect(screen.join('\n')).toMatch(/@missing\.md not attached: /)

    // `!` runs under the same policy as the model's exec: it asks first.
    await terminals.keys('attach', '!echo shell-said-hi', 'Enter')
    await terminals.waitFor('attach', 'Allow exec: echo shell-said-hi?')
    await terminals.keys('attach', 'y')
    // Sent while the command may still run: it waits for the command, whose output goes with it.
    await terminals.keys('attach', 'what did it say', 'Enter')
    const after = await terminals.waitFor('attach', 'The shell said hi.')
    const lines = after.slice(after.indexOf('› !echo shell-said-hi'))
    expect(lines.indexOf('shell-said-hi')).toBeGreaterThan(0)
    expect(lines.indexOf('› what did it say')).toBeGreaterThan(lines.indexOf('shell-said-hi'))
    await terminals.keys('attach', 'C-d')
    expect(await terminals.exitStatus('attach')).toBe(0)
  })
})
