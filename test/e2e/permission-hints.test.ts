import {existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {execa} from 'execa'
import {describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {CLI, runCli, useSandboxDirs} from '../helpers/cli.js'

// Issue 12, item 5: off a terminal a denial suggests rules; added exactly as printed, the
// same call runs on the next run (before, `git status && npm test` got `exec(git *)`, which
// left the second part asking).

const HINT = /allow it from now on with: (.+)$/m

describe('the rules a denial suggests', () => {
  const dirs = useSandboxDirs('hanzo-hints-', 'project', 'bin')

  async function setUp(command: string) {
    await execa('git', ['init', '-q'], {cwd: dirs.project})
    const script: Script = {
      turns: [
        {tool_calls: [{arguments: {command}, name: 'exec'}]},
        {expect: {has_tool_result_for: 'exec'}, text: 'Done.'},
      ],
    }
    const file = join(dirs.box.home, 'script.json')
    writeFileSync(file, JSON.stringify(script))
    // The hint names the installed command: `hanzo-dev` on PATH is this build.
    symlinkSync(CLI, join(dirs.bin, 'hanzo-dev'))
    const env = {...dirs.box.env, PATH: `${dirs.bin}:${process.env.PATH}`}
    const run = (...args: string[]) => runCli(['run', 'do it', '--fake-model', file, ...args], {cwd: dirs.project, env})
    return {env, run}
  }

  it('for a chain, one rule per part not allowed yet; pasted as printed, the command runs', async () => {
    mkdirSync(join(dirs.project, '.hanzo'))
    writeFileSync(
      join(dirs.project, '.hanzo', 'settings.local.json'),
      JSON.stringify({permissions: {'exec(git status)': 'allow'}}),
    )
    const {env, run} = await setUp('git status && git add -A && touch ran.txt')
    // The one allow rule already there is the user's: trusted, so the commands below keep the trust.
    expect(await runCli(['trust', '--yes'], {cwd: dirs.project, env})).toMatchObject({exitCode: 0})

    const denied = await run()
    expect(denied.exitCode, denied.stderr).toBe(0)
    expect(existsSync(join(dirs.project, 'ran.txt'))).toBe(false)
    const hint = HINT.exec(denied.stderr)?.[1]
    expect(hint).toBe(
      "hanzo-dev config set 'permissions.exec(git add -A)' allow --tier local && hanzo-dev config set 'permissions.exec(touch ran.txt)' allow --tier local",
    )

    const pasted = await execa('bash', ['-c', hint!], {cwd: dirs.project, env, extendEnv: false, reject: false})
    expect(pasted.exitCode, pasted.stderr).toBe(0)
    const again = await run()
    expect(again.exitCode, again.stderr).toBe(0)
    expect(again.stderr).not.toContain('Permission denied')
    expect(again.stderr).not.toContain('not trusted')
    expect(existsSync(join(dirs.project, 'ran.txt'))).toBe(true)
    const local = JSON.parse(readFileSync(join(dirs.project, '.hanzo', 'settings.local.json'), 'utf8')) as {
      permissions: object
    }
    expect(local.permissions).toEqual({
      'exec(git add -A)': 'allow',
      'exec(git status)': 'allow',
      'exec(touch ran.txt)': 'allow',
    })
  })

  it('suggests no rule where none can allow the call, and says what does', async () => {
    const {run} = await setUp('echo hi > out.txt; echo done')
    const denied = await run()
    expect(denied.exitCode, denied.stderr).toBe(0)
    expect(denied.stderr).not.toContain('config set')
    expect(denied.stderr).toContain('No allow rule matches this command line: it redirects output to a file')
    expect(denied.stderr).toContain('or run with --permission-mode allow-all')
    const allowed = await run('--permission-mode', 'allow-all')
    expect(allowed.exitCode, allowed.stderr).toBe(0)
    expect(readFileSync(join(dirs.project, 'out.txt'), 'utf8')).toBe('hi\n')
  })
})
