import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {runCli, useSandboxDirs} from '../helpers/cli.js'
import {CLIPBOARD, expectShownNotObeyed, TITLE} from '../helpers/hostile-text.js'
import {runOnTerminal} from '../helpers/terminal.js'

/**
 * [security-3] item 4: text hanzo-dev did not write reaches a real terminal (`script`'s pty) only
 * through the printer. Checked on the bytes the terminal receives, not on a rendered screen: no
 * OSC sequence gets there, and the text is still there to read.
 */
describe('untrusted text on a terminal is shown, never obeyed', () => {
  const dirs = useSandboxDirs('hanzo-untrusted-', 'project')

  function script(name: string, turns: Script['turns']): string {
    const file = join(dirs.box.home, `${name}.json`)
    writeFileSync(file, JSON.stringify({turns}))
    return file
  }

  /** What the terminal received from the command, which must exit with `exitCode`. */
  async function onTerminal(args: string[], exitCode: number): Promise<string> {
    const terminal = runOnTerminal(args, {cwd: dirs.project, env: dirs.box.env})
    expect(await terminal.exitCode, terminal.output()).toBe(exitCode)
    return terminal.raw()
  }

  it("run: a model server's error message", async () => {
    const model = script('refusing', [{body: {message: `boom ${CLIPBOARD}${TITLE}`}, status: 400}])
    const raw = await onTerminal(['run', 'hi', '--fake-model', model], 1)
    expect(raw).toContain('boom')
    expectShownNotObeyed(raw)
  })

  it("agent --list: a project agent's description", async () => {
    mkdirSync(join(dirs.project, '.hanzo', 'agents'), {recursive: true})
    writeFileSync(
      join(dirs.project, '.hanzo', 'agents', 'helper.md'),
      `---\ndescription: Helps ${CLIPBOARD}${TITLE}\n---\nYou help.\n`,
    )
    // An allow rule makes the project's settings need trust, as a cloned repository's would: trusted, its agents load.
    writeFileSync(join(dirs.project, '.hanzo', 'settings.json'), JSON.stringify({permissions: {fs_read: 'allow'}}))
    expect(await runCli(['trust', '--yes'], {cwd: dirs.project, env: dirs.box.env})).toMatchObject({exitCode: 0})
    const raw = await onTerminal(['agent', '--list'], 0)
    expect(raw).toContain('helper')
    expectShownNotObeyed(raw)
  })

  it("sessions list: a saved session's first prompt", async () => {
    const saved = await runCli(
      ['run', `fix ${CLIPBOARD}${TITLE}`, '--fake-model', script('reply', [{text: 'Done.'}])],
      {cwd: dirs.project, env: dirs.box.env},
    )
    expect(saved.exitCode, saved.stderr).toBe(0)
    const raw = await onTerminal(['sessions', 'list'], 0)
    expect(raw).toContain('fix ')
    expectShownNotObeyed(raw)
    // --json keeps the prompt as it was: JSON escapes it.
    const listed = await runCli(['sessions', 'list', '--json'], {cwd: dirs.project, env: dirs.box.env})
    expect(JSON.parse(listed.stdout).sessions[0].first_prompt).toBe(`fix ${CLIPBOARD}${TITLE}`)
  })
})
