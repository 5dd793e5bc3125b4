import {afterEach, describe, expect, it} from 'vitest'

import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {CLI, runCli, unwrapped, useSandboxDirs} from '../helpers/cli.js'
import {useChatTerminals} from '../helpers/terminal.js'

/** What a Claude Code user types first: `-p "task"`, `"task"`, and the typos on the way. */
describe('hanzo-dev prompt shortcuts', () => {
  const dirs = useSandboxDirs('hanzo-shortcuts-', 'project')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  const cli = (args: string[], input?: string) => runCli(args, {cwd: dirs.project, env: dirs.box.env, input})

  it('runs -p and --print headless exactly as run, flags passed on, stdin with -', async () => {
    model = await startFakeModel({
      turns: [
        {expect: {last_user_contains: 'say hi'}, text: 'Hi there.'},
        {expect: {last_user_contains: 'say bye'}, text: 'Bye.'},
        {expect: {last_user_contains: 'from stdin'}, text: 'Read it.'},
      ],
    })
    const printed = await cli(['-p', 'say hi', '--base-url', model.url, '--model', 'qwen3:8b'])
    expect(printed, printed.stderr).toMatchObject({exitCode: 0, stdout: 'Hi there.'})
    expect((model.requests[0].body as {model: string}).model).toBe('qwen3:8b')

    // Flags before the prompt too, and run's own output format.
    const json = await cli(['--base-url', model.url, '--print', '--output-format', 'json', 'say bye'])
    expect(json.exitCode, json.stderr).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({result: 'Bye.'})

    const piped = await cli(['-p', '-', '--base-url', model.url], 'the task from stdin\n')
    expect(piped).toMatchObject({exitCode: 0, stdout: 'Read it.'})
  })

  it('says "did you mean" for a mistyped flag, and keeps oclif\'s words for one far from any', async () => {
    const typo = await cli(['run', '--modl', 'x', 'hi'])
    expect(typo.exitCode).toBe(2)
    expect(unwrapped(typo.stderr)).toContain('Unknown flag --modl. Did you mean --model?')
    expect(typo.stderr).not.toContain('USAGE')
    const far = await cli(['run', '--xyzzy', 'hi'])
    expect(far.exitCode).toBe(2)
    expect(far.stderr).toContain('Nonexistent flag: --xyzzy')
  })

  it('keeps a one-word typo a command typo, and off a terminal says how to run a prompt headless', async () => {
    const typo = await cli(['chta'])
    expect(typo.exitCode).toBe(2)
    expect(unwrapped(typo.stderr)).toContain('chta is not a hanzo-dev command. Did you mean chat?')

    const prompt = await cli(['fix the bug'])
    expect(prompt.exitCode).toBe(2)
    expect(unwrapped(prompt.stderr)).toContain('A prompt as the first argument opens the interactive session')
    expect(unwrapped(prompt.stderr)).toContain('hanzo-dev -p "fix the bug" runs it headless')
    expect(prompt.stderr).not.toMatch(/\n\s+at /)
  })
})

describe('hanzo-dev "a prompt" on a terminal', () => {
  const chat = useChatTerminals('hanzo-shortcut-chat-')

  it('opens the interactive session and sends the prompt first', async () => {
    const script = chat.script('first', [{expect: {last_user_contains: 'fix the bug'}, text: 'Fixed it.'}])
    await chat.terminals.open('chat', `node ${CLI} "fix the bug" --fake-model ${script}`, {cwd: chat.project})
    const screen = await chat.terminals.waitFor('chat', 'Fixed it.')
    expect(screen).toContain('› fix the bug')
  })
})
