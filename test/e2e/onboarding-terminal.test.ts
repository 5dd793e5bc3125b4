import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {CLI, runCli} from '../helpers/cli.js'
import {useChatTerminals} from '../helpers/terminal.js'

/** A first run with no credential, in real terminals (tmux): bare hanzo-dev walks the user to a working session. */
describe('the setup screen of a first run', () => {
  const chat = useChatTerminals('hanzo-onboard-')
  let model: FakeModel | undefined
  afterAll(async () => model?.close())

  const settingsFile = () => join(chat.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json')
  /** Moves the select's cursor down to the choice starting with `label`. */
  const pick = async (name: string, label: string) => {
    for (let step = 0; step < 12; step++) {
      const screen = await chat.terminals.screen(name)
      if (screen.some((line) => line.includes(`❯ ${label}`))) return chat.terminals.keys(name, 'Enter')
      await chat.terminals.keys(name, 'Down')
    }

    throw new Error(`no choice ${label}: ${(await chat.terminals.screen(name)).join('\n')}`)
  }

  it('finds a model server on this machine, lists its models, saves the choice and opens the session on it with the first prompt; /login comes back to the chat', async () => {
    model = await startFakeModel({
      models: ['llama3', 'qwen3:8b'],
      turns: [{expect: {last_user_contains: 'hello'}, text: 'Hi from the local server.'}],
    })
    writeFileSync(
      settingsFile(),
      JSON.stringify({providers: {stub: {base_url: model.url}}, sandbox: {mode: 'workspace'}}),
    )
    // `hanzo-dev "a prompt"`: the setup screen first, then the prompt goes to the model it set up.
    await chat.terminals.open('local', `node ${CLI} "hello there"`, {cwd: chat.project, height: 40})
    let screen = await chat.terminals.waitFor('local', 'How should hanzo-dev reach a model?')
    expect(screen.join('\n')).toContain('No API key for')
    await chat.terminals.waitFor('local', `Use stub on ${model.url} (2 models)`)
    await pick('local', 'Use stub')
    await chat.terminals.waitFor('local', 'Model')
    await pick('local', 'qwen3:8b')
    await chat.terminals.waitFor('local', 'qwen3:8b · ')
    const saved = JSON.parse(readFileSync(settingsFile(), 'utf8')) as Record<string, unknown>
    expect(saved).toMatchObject({model: 'qwen3:8b', provider: 'stub'})

    await chat.terminals.waitFor('local', 'Hi from the local server.')
    const sent = model.requests.find((request) => request.path.endsWith('/chat/completions'))
    expect((sent?.body as {model?: string}).model).toBe('qwen3:8b')

    // /model lists what the server serves, the one in use marked.
    await chat.terminals.keys('local', '/model', 'Enter')
    screen = await chat.terminals.waitFor('local', '/model N or /model ID switches')
    expect(screen.join('\n')).toMatch(/› +2 {2}qwen3:8b/)

    // /login opens the same screen in the session; quitting it leaves the chat as it was.
    await chat.terminals.keys('local', '/login', 'Enter')
    await chat.terminals.waitFor('local', 'How should hanzo-dev reach a model?')
    await pick('local', 'Quit')
    await chat.terminals.waitFor('local', 'Nothing changed.')
    await chat.terminals.keys('local', 'C-d')
    expect(await chat.terminals.exitStatus('local')).toBe(0)
  })

  it('stores a pasted API key (never shown) and opens the session on that provider with its own model; /logout deletes it', async () => {
    const config = join(chat.box.home, 'fresh-config')
    mkdirSync(join(config, 'hanzo'), {recursive: true})
    writeFileSync(join(config, 'hanzo', 'settings.json'), JSON.stringify({sandbox: {mode: 'workspace'}}))
    await chat.terminals.open('key', `XDG_CONFIG_HOME=${config} node ${CLI} chat`, {cwd: chat.project, height: 40})
    await chat.terminals.waitFor('key', 'How should hanzo-dev reach a model?')
    await pick('key', 'Paste an API key for openai')
    // The hidden prompt itself (`?`), not the menu's answer naming it: keys typed before it would echo.
    await chat.terminals.waitFor('key', '? API key for openai')
    await chat.terminals.keys('key', 'sk-onboard-secret-123', 'Enter')
    const screen = await chat.terminals.waitFor('key', 'gpt-5.5 · ')
    expect(screen.join('\n')).toContain('Stored the openai API key')
    expect(screen.join('\n')).not.toContain('sk-onboard-secret')
    await chat.terminals.keys('key', '/logout', 'Enter')
    await chat.terminals.waitFor('key', 'Logged out of openai.')
    await chat.terminals.waitFor('key', 'This session keeps its connection until it ends')
    await chat.terminals.keys('key', 'C-d')
    expect(await chat.terminals.exitStatus('key')).toBe(0)

    const status = await runCli(['auth', 'status', '--json'], {
      cwd: chat.project,
      env: {...chat.box.env, XDG_CONFIG_HOME: config},
    })
    expect(JSON.parse(status.stdout)).toMatchObject({credentials: []})
  })
})
