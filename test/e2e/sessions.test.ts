import {appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {runCli, unwrapped, useSandboxDirs} from '../helpers/cli.js'

/** Reads the greeting, then answers: a session with a tool call and its result to carry on. */
const FIRST_RUN: Script = {
  turns: [
    {
      tool_calls: [{arguments: {path: 'greeting.txt'}, name: 'fs_read'}],
      usage: {input_tokens: 1000, output_tokens: 100},
    },
    {
      expect: {tool_result_contains: 'hello world'},
      text: 'It says hello world.',
      usage: {input_tokens: 1200, output_tokens: 20},
    },
  ],
}

/** The next run's request must carry the first run's conversation: its tool call and result, then the new prompt. */
const CARRIED_ON: Script = {
  turns: [
    {
      expect: {
        has_tool_result_for: 'fs_read',
        last_user_contains: 'and now in French',
        tool_result_contains: 'hello world',
      },
      text: 'Il dit bonjour.',
      usage: {input_tokens: 1500, output_tokens: 10},
    },
  ],
}

describe('saved sessions', () => {
  const dirs = useSandboxDirs('hanzo-sessions-', 'project', 'elsewhere')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  const cli = (args: string[], cwd = dirs.project) => runCli(args, {cwd, env: dirs.box.env})
  async function run(script: Script, args: string[], cwd = dirs.project) {
    await model?.close()
    model = await startFakeModel(script)
    return cli(['run', ...args, '--base-url', model.url, '--model', 'm1', '--permission-mode', 'allow-reads'], cwd)
  }

  async function json(args: string[], cwd = dirs.project) {
    const result = await cli([...args, '--json'], cwd)
    expect(result.exitCode, result.stderr).toBe(0)
    return JSON.parse(result.stdout)
  }

  const sessionFiles = () => {
    const root = join(dirs.box.env.XDG_DATA_HOME, 'hanzo-dev', 'sessions')
    return readdirSync(root).flatMap((project) =>
      readdirSync(join(root, project)).map((name) => join(root, project, name)),
    )
  }

  const readLines = (path: string) =>
    readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))

  function setPricing() {
    mkdirSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(
      join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
      JSON.stringify({pricing: {m1: {input: 3, output: 15}}}),
    )
  }

  async function firstRun(...extra: string[]) {
    writeFileSync(join(dirs.project, 'greeting.txt'), 'hello world\n')
    const result = await run(FIRST_RUN, ['what does greeting.txt say?', '--output-format', 'json', ...extra])
    expect(result.exitCode, result.stderr).toBe(0)
    return JSON.parse(result.stdout)
  }

  it('saves every run: the messages, usage per request and how it ended, in a private file', async () => {
    const output = await firstRun()
    expect(output.usage).toEqual({
      by_turn: [
        {input_tokens: 1000, model: 'm1', output_tokens: 100, provider: 'hanzo', turn: 1},
        {input_tokens: 1200, model: 'm1', output_tokens: 20, provider: 'hanzo', turn: 2},
      ],
      input_tokens: 2200,
      output_tokens: 120,
    })
    const [file] = sessionFiles()
    expect(file).toMatch(new RegExp(`project-[0-9a-f]{12}/${output.session_id}\\.jsonl$`))
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const lines = readLines(file)
    expect(lines.map((line) => line.type)).toEqual([
      'session',
      'user',
      // A reply with calls is saved before they run, so before its request's usage.
      'assistant',
      'usage',
      'tool_result',
      'usage',
      'assistant',
      'end',
    ])
    expect(lines[0]).toMatchObject({
      cwd: dirs.project,
      id: output.session_id,
      model: 'm1',
      project_root: dirs.project,
      provider: 'hanzo',
      version: 1,
    })
    expect(lines[4]).toMatchObject({content: expect.stringContaining('hello world'), tool_name: 'fs_read'})
    expect(lines.at(-1)).toMatchObject({stop: 'completed', turns: 2, usage: {input_tokens: 2200, output_tokens: 120}})
    expect(readFileSync(file, 'utf8')).not.toContain('Bearer')

    const listed = await json(['sessions', 'list'])
    expect(listed.sessions).toEqual([
      expect.objectContaining({
        first_prompt: 'what does greeting.txt say?',
        id: output.session_id,
        model: 'm1',
        runs: 1,
        turns: 2,
        usage: {input_tokens: 2200, output_tokens: 120},
      }),
    ])
    const table = await cli(['sessions', 'list'])
    expect(table.stdout).toContain(output.session_id.slice(0, 8))
    expect(table.stdout).toContain('what does greeting.txt say?')
  })

  it('turns tokens into cost with a price table, in json, stream-json and sessions show', async () => {
    setPricing()
    const output = await firstRun()
    // 2200 in × $3 + 120 out × $15, per million.
    expect(output.usage).toMatchObject({cost_usd: 0.0084, by_turn: [{cost_usd: 0.0045}, {cost_usd: 0.0039}]})
    expect(output.session_usage).toEqual({cost_usd: 0.0084, input_tokens: 2200, output_tokens: 120})

    const streamed = await run(CARRIED_ON, ['--continue', 'and now in French', '--output-format', 'stream-json'])
    expect(streamed.exitCode, streamed.stderr).toBe(0)
    const events = streamed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(events.find((event) => event.type === 'usage')).toEqual({
      cost_usd: 0.00465,
      input_tokens: 1500,
      output_tokens: 10,
      turn: 1,
      type: 'usage',
    })
    expect(events.at(-1)).toMatchObject({
      session_usage: {cost_usd: 0.01305, input_tokens: 3700, output_tokens: 130},
      usage: {cost_usd: 0.00465},
    })

    const shown = await json(['sessions', 'show', output.session_id.slice(0, 8)])
    expect(shown).toMatchObject({runs: 2, turns: 3, usage: {cost_usd: 0.01305, input_tokens: 3700, output_tokens: 130}})
    expect(shown.usage.by_turn.map((turn: {run: number; turn: number}) => [turn.run, turn.turn])).toEqual([
      [1, 1],
      [1, 2],
      [2, 1],
    ])
    const text = await cli(['sessions', 'show', output.session_id])
    expect(text.stdout).toContain('3,700 in · 130 out · $0.013')
    expect(text.stdout).toContain('> and now in French')
    expect(text.stdout).toContain('⏺ fs_read greeting.txt')
  })

  it('--continue carries on the latest session of this project, in the same file', async () => {
    const output = await firstRun()
    const result = await run(CARRIED_ON, ['--continue', 'and now in French', '--output-format', 'json'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({
      result: 'Il dit bonjour.',
      session_id: output.session_id,
      session_usage: {input_tokens: 3700},
    })
    const [file, ...others] = sessionFiles()
    expect(others).toEqual([])
    const lines = readLines(file)
    expect(lines.filter((line) => line.type === 'run')).toEqual([
      expect.objectContaining({cwd: dirs.project, model: 'm1'}),
    ])
    expect(lines.filter((line) => line.type === 'user').map((line) => line.content)).toEqual([
      'what does greeting.txt say?',
      'and now in French',
    ])
    expect(lines.at(-1)).toMatchObject({stop: 'completed', type: 'end'})
  })

  it('--resume ID carries on a session from another directory', async () => {
    const output = await firstRun()
    const result = await run(
      CARRIED_ON,
      ['--resume', output.session_id.slice(0, 6), 'and now in French'],
      dirs.elsewhere,
    )
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('Il dit bonjour.')
    expect(sessionFiles()).toHaveLength(1)
    // Listed with its own project, not the directory it was resumed from.
    expect((await json(['sessions', 'list'], dirs.elsewhere)).sessions).toEqual([])
    expect((await json(['sessions', 'list', '--all'], dirs.elsewhere)).sessions).toMatchObject([
      {id: output.session_id, project_root: dirs.project, runs: 2},
    ])
  })

  it('loads and carries on a transcript whose last line a kill cut short', async () => {
    const output = await firstRun()
    const [file] = sessionFiles()
    appendFileSync(file, '{"type":"assistant","content":"half a li')
    const shown = await json(['sessions', 'show', output.session_id])
    expect(shown.skipped).toEqual([{line: 9, reason: 'torn'}])
    const result = await run(CARRIED_ON, ['--continue', 'and now in French'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(unwrapped(result.stderr)).toContain('skipped line 9')
    expect(result.stdout).toBe('Il dit bonjour.')
    // The torn line was ended before the new lines: they are whole.
    const rows = readFileSync(file, 'utf8').trim().split('\n')
    expect(rows[8]).toBe('{"type":"assistant","content":"half a li')
    expect(rows.slice(9).map((row) => JSON.parse(row).type)).toEqual(['run', 'user', 'usage', 'assistant', 'end'])
  })

  it('says clearly when there is no session to carry on', async () => {
    const none = await run(CARRIED_ON, ['--continue', 'more'])
    expect(none.exitCode).toBe(1)
    expect(unwrapped(none.stderr)).toContain(`No saved session in ${dirs.project} to continue`)
    expect(unwrapped(none.stderr)).toContain('sessions list --all')
    const unknown = await run(CARRIED_ON, ['--resume', '0000abcd', 'more'])
    expect(unknown.exitCode).toBe(1)
    expect(unwrapped(unknown.stderr)).toContain('No saved session 0000abcd')
    const wrong = await run(CARRIED_ON, ['--resume', '../x', 'more'])
    expect(wrong.exitCode).toBe(2)
    expect(model!.requests).toHaveLength(0)
    const both = await run(CARRIED_ON, ['--resume', '0000abcd', '--continue', 'more'])
    expect(both.exitCode).toBe(2)
  })

  it('sessions delete removes the transcript', async () => {
    const output = await firstRun()
    const [file] = sessionFiles()
    expect(await json(['sessions', 'delete', output.session_id])).toEqual({
      // It only read a file: nothing to checkpoint.
      checkpoints: false,
      deleted: true,
      id: output.session_id,
      path: file,
    })
    expect(existsSync(file)).toBe(false)
    const again = await cli(['sessions', 'show', output.session_id])
    expect(again.exitCode).toBe(1)
    expect(unwrapped(again.stderr)).toContain(`No saved session ${output.session_id}`)
    expect((await json(['sessions', 'list'])).sessions).toEqual([])
  })
})
