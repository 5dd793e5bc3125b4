import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {runCli, spawnCli, useSandboxDirs} from '../helpers/cli.js'
import {isAlive, waitUntil} from '../helpers/processes.js'
import {WIRE_FORMATS, writeFakeProviderSettings} from '../helpers/wire-formats.js'

/** The request after the interrupt: every call answered, the interrupted one as such, then the new prompt. */
const CARRIED_ON = {
  expect: {last_user_contains: 'go on', tool_calls_answered: true, tool_result_contains: 'interrupted'},
  text: 'Carrying on.',
} as const

describe('a session survives a crash', () => {
  const dirs = useSandboxDirs('hanzo-interrupt-', 'project')
  let model: FakeModel | undefined
  const pids: number[] = []
  afterEach(async () => {
    for (const pid of pids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL')
    await model?.close()
    model = undefined
  })

  async function setUp(script: Script, api: string, name: string) {
    model = await startFakeModel(script)
    // The test reads the command's pid, which only means something outside a sandbox's pid namespace.
    writeFakeProviderSettings(
      dirs.box.env.XDG_CONFIG_HOME,
      {api, model: name, url: model.url},
      {sandbox: {mode: 'off'}},
    )
  }

  const run = (args: string[], detached = false) =>
    spawnCli(['run', ...args, '--permission-mode', 'allow-all'], {cwd: dirs.project, detached, env: dirs.box.env})

  it.each(WIRE_FORMATS)(
    'kill -9 during a tool call, then run --continue sends every call with its result (%s)',
    async (api, name) => {
      await setUp(
        {
          turns: [
            {
              text: 'Running it.',
              tool_calls: [{arguments: {command: 'echo $$ > cmd.pid; exec sleep 60'}, id: 'call_slow', name: 'exec'}],
            },
            CARRIED_ON,
          ],
        },
        api,
        name,
      )
      const child = run(['wait a minute'], true)
      const pidFile = join(dirs.project, 'cmd.pid')
      await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the command started')
      pids.push(Number(readFileSync(pidFile, 'utf8')))
      process.kill(-child.pid!, 'SIGKILL')
      expect((await child).signal).toBe('SIGKILL')

      const again = await run(['--continue', 'go on'])
      expect(again.exitCode, again.stderr).toBe(0)
      expect(again.stdout).toBe('Carrying on.')
      const sent = JSON.stringify(model!.requests[1].body)
      expect(sent).toContain('Running it.')
      expect(sent).toContain('call_slow')
    },
  )

  it('a model error mid-reply, then run --continue: the text it got is kept, the cut call is not', async () => {
    await setUp(
      {
        turns: [
          {tool_calls: [{arguments: {command: 'echo hi'}, name: 'exec'}]},
          {
            stream_error: {message: 'the upstream broke'},
            text: 'Half an ans',
            tool_calls: [{arguments: {command: 'echo again'}, id: 'call_cut', name: 'exec'}],
          },
          {expect: {last_user_contains: 'go on', tool_calls_answered: true}, text: 'Carrying on.'},
        ],
      },
      'chat_completions',
      'gpt-4o',
    )
    const failed = await run(['say hi'])
    expect(failed.exitCode).not.toBe(0)
    expect(failed.stderr).toContain('the upstream broke')

    const again = await runCli(['run', '--continue', 'go on'], {cwd: dirs.project, env: dirs.box.env})
    expect(again.exitCode, again.stderr).toBe(0)
    expect(again.stdout).toBe('Carrying on.')
    const sent = JSON.stringify(model!.requests.at(-1)!.body)
    expect(sent).toContain('Half an ans')
    expect(sent).not.toContain('call_cut')
  })
})
