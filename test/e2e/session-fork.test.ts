import {createHash} from 'node:crypto'
import {readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {runCli, unwrapped, useSandboxDirs} from '../helpers/cli.js'

/** Reads the greeting, then answers: a conversation with a tool call and its result to fork. */
const FIRST_RUN: Script = {
  turns: [
    {
      tool_calls: [{arguments: {path: 'greeting.txt'}, name: 'fs_read'}],
      usage: {input_tokens: 1000, output_tokens: 100},
    },
    {expect: {tool_result_contains: 'hello world'}, text: 'It says hello world.'},
  ],
}

const PLAN = [{content: 'Read the greeting', status: 'in_progress', activeForm: 'Reading the greeting'}]

/** A fork's request carries the forked conversation: its tool call and result, then the new prompt. */
const forkedTurn = (prompt: string, text: string): Script => ({
  turns: [
    {
      expect: {has_tool_result_for: 'fs_read', last_user_contains: prompt, tool_result_contains: 'hello world'},
      text,
      usage: {input_tokens: 1500, output_tokens: 10},
    },
  ],
})

describe('forked sessions', () => {
  const dirs = useSandboxDirs('hanzo-fork-', 'project')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  const cli = (args: string[]) => runCli(args, {cwd: dirs.project, env: dirs.box.env})
  async function run(script: Script, args: string[]) {
    await model?.close()
    model = await startFakeModel(script)
    const result = await cli([
      'run',
      ...args,
      '--base-url',
      model.url,
      '--model',
      'm1',
      '--permission-mode',
      'allow-reads',
    ])
    expect(result.exitCode, result.stderr).toBe(0)
    return result
  }

  const json = async (args: string[]) => JSON.parse((await cli([...args, '--json'])).stdout)
  const sessionsDir = () => {
    const root = join(dirs.box.env.XDG_DATA_HOME, 'hanzo-dev', 'sessions')
    const [project] = readdirSync(root)
    return join(root, project)
  }

  const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex')
  const lines = (path: string) =>
    readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))

  async function original(script = FIRST_RUN): Promise<{id: string; path: string; hash: string}> {
    writeFileSync(join(dirs.project, 'greeting.txt'), 'hello world\n')
    const first = await run(script, ['what does greeting.txt say?', '--output-format', 'json'])
    const id = JSON.parse(first.stdout).session_id as string
    const path = join(sessionsDir(), `${id}.jsonl`)
    return {hash: digest(path), id, path}
  }

  it('run --continue --fork-session carries the conversation into a new session and leaves the original as it was', async () => {
    const from = await original()
    const forked = await run(forkedTurn('more', 'More of it.'), [
      '--continue',
      '--fork-session',
      'more',
      '--output-format',
      'json',
    ])
    const fork = JSON.parse(forked.stdout)
    expect(fork).toMatchObject({result: 'More of it.'})
    expect(fork.session_id).not.toBe(from.id)
    expect(digest(from.path)).toBe(from.hash)

    const saved = lines(join(sessionsDir(), `${fork.session_id}.jsonl`))
    expect(saved[0]).toMatchObject({forked_from: from.id, id: fork.session_id, type: 'session'})
    expect(saved[1]).toMatchObject({type: 'history'})
    expect(saved[1].messages.map((message: {type: string}) => message.type)).toEqual([
      'user',
      'assistant',
      'tool_result',
      'assistant',
    ])
    // The fork's usage is its own requests, not the original's again.
    expect(fork.usage).toMatchObject({input_tokens: 1500, output_tokens: 10})

    const listed = await json(['sessions', 'list'])
    expect(listed.sessions.map((session: {id: string}) => session.id)).toEqual([fork.session_id, from.id])
    expect(listed.sessions[0]).toMatchObject({first_prompt: 'more', forked_from: from.id})

    const shown = unwrapped((await cli(['sessions', 'show', fork.session_id])).stdout)
    expect(shown).toContain(`Forked    from ${from.id}`)
    expect(shown).toContain('what does greeting.txt say?')
    expect(shown).toContain('It says hello world.')

    // The fork goes on as any session: --continue now carries on the fork, with both its turns.
    await run(
      {
        turns: [
          {
            expect: {last_user_contains: 'and again', tool_result_contains: 'hello world'},
            text: 'Again.',
          },
        ],
      },
      ['--continue', 'and again'],
    )
    expect(lines(join(sessionsDir(), `${fork.session_id}.jsonl`)).filter((line) => line.type === 'user')).toMatchObject(
      [{content: 'more'}, {content: 'and again'}],
    )
    expect(digest(from.path)).toBe(from.hash)
  })

  it('--resume ID --fork-session forks that session, by the start of its id, with its plan', async () => {
    const from = await original({
      turns: [{tool_calls: [{arguments: {todos: PLAN}, name: 'todo_write'}]}, ...FIRST_RUN.turns],
    })
    const forked = await run(forkedTurn('in French', 'Bonjour.'), [
      '--resume',
      from.id.slice(0, 8),
      '--fork-session',
      'in French',
      '--output-format',
      'json',
    ])
    const fork = JSON.parse(forked.stdout).session_id as string
    expect(fork).not.toBe(from.id)
    expect(digest(from.path)).toBe(from.hash)
    expect((await json(['sessions', 'list'])).sessions).toHaveLength(2)
    // The plan the original left goes with the copy.
    expect(lines(join(sessionsDir(), `${fork}.jsonl`)).find((line) => line.type === 'todos')).toMatchObject({
      todos: PLAN,
    })
  })

  it('--fork-session without --resume or --continue is a usage error, before anything runs', async () => {
    for (const command of ['run', 'chat']) {
      const result = await cli([command, '--fork-session', 'hi'])
      expect(result.exitCode, command).toBe(2)
      expect(unwrapped(result.stderr)).toContain('--fork-session goes with --resume ID or --continue')
      expect(result.stderr).not.toMatch(/\n\s+at /)
    }
  })
})
