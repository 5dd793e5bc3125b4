import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {CLI, useSandboxDirs} from '../helpers/cli.js'
import {Terminals} from '../helpers/terminal.js'

/** `auto` on a real terminal (tmux): one "Allow for this session" answer holds in every later stage. */
describe('hanzo-dev auto on a terminal', () => {
  const dirs = useSandboxDirs('hanzo-agents-term-', 'project')
  let terminals: Terminals
  beforeEach(() => {
    terminals = Terminals.create(dirs.box.env)
    mkdirSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(
      join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
      JSON.stringify({sandbox: {mode: 'workspace'}}),
    )
  })
  afterEach(() => terminals.close())

  it('asks once, and a session approval covers the second code round', async () => {
    const exec = {arguments: {command: 'echo checked'}, name: 'exec'}
    const script = join(dirs.box.home, 'auto.json')
    writeFileSync(
      script,
      JSON.stringify({
        turns: [
          {text: '1. Check.'},
          {tool_calls: [exec]},
          {text: 'Checked.'},
          {text: 'VERDICT: fail\n- check again'},
          {tool_calls: [exec]},
          {expect: {tool_result_contains: 'checked'}, text: 'Checked again.'},
          {text: 'VERDICT: pass'},
        ],
      }),
    )
    await terminals.open('auto', `${process.execPath} ${CLI} auto 'check it' --fake-model ${script}`, {
      cwd: dirs.project,
      height: 60,
    })
    await terminals.waitFor('auto', 'Allow exec')
    await terminals.keys('auto', 'Down', 'Enter')
    expect(await terminals.exitStatus('auto')).toBe(0)
    const screen = (await terminals.screen('auto')).join('\n')
    expect(screen.match(/Allow exec/g)).toHaveLength(1)
    expect(screen).toContain('Review: passed (2 code rounds)')
  })
})
