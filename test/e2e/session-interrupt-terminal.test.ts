import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {CLI} from '../helpers/cli.js'
import {waitUntil} from '../helpers/processes.js'
import {useChatTerminals} from '../helpers/terminal.js'
import {WIRE_FORMATS, writeFakeProviderSettings} from '../helpers/wire-formats.js'

/** A command that runs until the turn is stopped; the file `started` names says it runs. */
const slowCall = (started: string) => ({
  tool_calls: [{arguments: {command: `touch ${started}; sleep 60`}, id: `call_${started}`, name: 'exec'}],
})

/** The request after the stop: every call answered (the stopped one as cancelled), then the new prompt. */
const carriedOn = (prompt: string) => ({
  expect: {last_user_contains: prompt, tool_calls_answered: true, tool_result_contains: 'cancelled'},
  text: `On with ${prompt}.`,
})

/** Esc and Ctrl-C during a tool call in the chat, on each wire format: what the next prompt sends (tmux panes). */
describe('the chat after a turn stopped during a tool call', () => {
  const chat = useChatTerminals('hanzo-chat-interrupt-')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  it.each(WIRE_FORMATS)(
    'Esc, then Ctrl-C, each then a new prompt: the model gets a valid history (%s)',
    async (api, name) => {
      const started = (n: number) => `started-${api}-${n}`
      model = await startFakeModel({
        turns: [slowCall(started(1)), carriedOn('go on'), slowCall(started(2)), carriedOn('and more')],
      })
      writeFakeProviderSettings(
        chat.box.env.XDG_CONFIG_HOME,
        {api, model: name, url: model.url},
        {sandbox: {mode: 'workspace'}},
      )
      const pane = `chat-${api}`
      const {terminals} = chat
      await terminals.open(pane, `node ${CLI} chat --permission-mode allow-all`, {cwd: chat.project, height: 40})
      await terminals.waitFor(pane, '/help for commands')

      for (const [n, key, prompt] of [
        [1, 'Escape', 'go on'],
        [2, 'C-c', 'and more'],
      ] as const) {
        await terminals.keys(pane, `start ${n}`, 'Enter')
        await waitUntil(() => existsSync(join(chat.project, started(n))), `command ${n} runs`)
        await terminals.keys(pane, key)
        await waitUntil(
          async () => (await terminals.screen(pane)).filter((line) => line.startsWith('Interrupted:')).length === n,
          `turn ${n} was stopped`,
        )
        await terminals.keys(pane, prompt, 'Enter')
        await terminals.waitFor(pane, `On with ${prompt}.`)
      }

      expect(model.requests).toHaveLength(4)
      await terminals.keys(pane, 'C-d')
      expect(await terminals.exitStatus(pane)).toBe(0)
    },
  )
})
