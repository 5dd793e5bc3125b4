import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {runCli, unwrapped, useSandboxDirs} from '../helpers/cli.js'

/** HIP-301 §9 through `hanzo-dev run`: project hooks run only once trusted, and a pre-hook deny beats an allow rule. */
describe('hooks in a run', () => {
  const dirs = useSandboxDirs('hanzo-hooks-run-', 'project')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  function writeHooks() {
    const log = join(dirs.box.home, 'hook.log')
    const script = join(dirs.box.home, 'guard.sh')
    // Logs what it got on stdin, and denies writes to secrets/.
    writeFileSync(
      script,
      `#!/bin/sh\ncat >> '${log}'\necho >> '${log}'\ncase "$HANZO_TOOL_INPUT" in *secrets/*) echo "no writes to secrets/" >&2; exit 2;; esac\nexit 0\n`,
      {mode: 0o755},
    )
    mkdirSync(join(dirs.project, '.hanzo'), {recursive: true})
    writeFileSync(
      join(dirs.project, '.hanzo', 'settings.json'),
      JSON.stringify({
        hooks: [{command: script, event: 'pre_tool_use', tool_pattern: 'fs_write'}],
        permissions: {fs_write: 'allow'},
      }),
    )
    return log
  }

  const script = () => ({
    turns: [
      {tool_calls: [{arguments: {content: 'k', path: 'secrets/key.txt'}, name: 'fs_write'}]},
      {tool_calls: [{arguments: {content: 'n', path: 'notes.txt'}, name: 'fs_write'}]},
      {text: 'done'},
    ],
  })

  it('runs a trusted project pre-hook: its deny beats the allow rule, and the model sees the reason', async () => {
    const log = writeHooks()
    expect(await runCli(['trust', '--yes'], {cwd: dirs.project, env: dirs.box.env})).toMatchObject({exitCode: 0})
    model = await startFakeModel(script())
    const result = await runCli(['run', 'write', '--base-url', model.url, '--output-format', 'stream-json'], {
      cwd: dirs.project,
      env: dirs.box.env,
    })
    expect(result.exitCode, result.stderr).toBe(0)
    const results = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((event) => event.type === 'tool_result')
    expect(results[0]).toMatchObject({is_error: true})
    expect(JSON.stringify(results[0])).toContain('no writes to secrets/')
    expect(results[1]).toMatchObject({is_error: false})
    expect(existsSync(join(dirs.project, 'secrets', 'key.txt'))).toBe(false)
    expect(readFileSync(join(dirs.project, 'notes.txt'), 'utf8')).toBe('n')
    const received = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(received.map((payload) => [payload.event, payload.tool_name, payload.tool_input.path])).toEqual([
      ['pre_tool_use', 'fs_write', 'secrets/key.txt'],
      ['pre_tool_use', 'fs_write', 'notes.txt'],
    ])
  })

  it('never runs the hooks of a project the user has not trusted, and says so', async () => {
    const log = writeHooks()
    model = await startFakeModel(script())
    const result = await runCli(['run', 'write', '--base-url', model.url, '--permission-mode', 'allow-all'], {
      cwd: dirs.project,
      env: dirs.box.env,
    })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(existsSync(log)).toBe(false)
    expect(unwrapped(result.stderr)).toContain('hanzo-dev trust')
  })

  it('a user_prompt_submit hook that exits 2 stops the prompt before the model sees it', async () => {
    const settings = join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo')
    mkdirSync(settings, {recursive: true})
    writeFileSync(
      join(settings, 'settings.json'),
      JSON.stringify({
        hooks: [{command: 'echo "prompts about passwords are blocked" >&2; exit 2', event: 'user_prompt_submit'}],
      }),
    )
    model = await startFakeModel({turns: [{text: 'never'}]})
    const result = await runCli(['run', 'what is the password', '--base-url', model.url], {
      cwd: dirs.project,
      env: dirs.box.env,
    })
    expect(result.exitCode).toBe(1)
    expect(unwrapped(result.stderr)).toMatch(
      /A hook stopped the prompt: hooks\[0\] user_prompt_submit \(user\): prompts about passwords are blocked/,
    )
    expect(model.requests).toHaveLength(0)
  })
})
