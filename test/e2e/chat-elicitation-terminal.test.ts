import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {httpEverything} from '../../plugins/mcp/test/mcp-fixtures.js'
import type {Script} from '../../src/testing/fake-model/script.js'
import {CLI} from '../helpers/cli.js'
import {useChatTerminals} from '../helpers/terminal.js'

const ELICIT = 'mcp__everything__trigger-elicitation-request'
const SAMPLE = 'mcp__everything__trigger-sampling-request'
const URL_ELICIT = 'mcp__everything__trigger-url-elicitation'

/** An MCP server's requests in the chat (tmux panes): its form, asked field by field; its sampling, approved. */
describe('elicitation and sampling in the chat', () => {
  const chat = useChatTerminals('hanzo-elicit-')
  let server: Awaited<ReturnType<typeof httpEverything>>

  beforeAll(async () => {
    server = await httpEverything('streamableHttp')
  })
  afterAll(() => server.close())

  /** A chat on the scripted model, with the server configured and `tool` allowed; open once it shows its prompt. */
  const open = async (name: string, tool: string, turns: Script['turns']) => {
    writeFileSync(
      join(chat.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
      JSON.stringify({mcp_servers: {everything: {url: server.url}}, permissions: {[tool]: 'allow'}}),
    )
    const model = chat.script(name, turns)
    await chat.terminals.open(name, `node ${CLI} chat --fake-model ${model}`, {cwd: chat.project, height: 50})
    await chat.terminals.waitFor(name, '/help for commands')
  }

  it("shows the server's form, checks each answer against its schema, takes defaults, and sends it", async () => {
    await open('chat', ELICIT, [
      {expect: {tools_include: [ELICIT]}, tool_calls: [{name: ELICIT}]},
      {expect: {tool_result_contains: '"integer": 7'}, text: 'Thanks for the answers.'},
      {expect: {tools_include: [ELICIT]}, tool_calls: [{name: ELICIT}]},
      {expect: {tool_result_contains: 'User declined'}, text: 'Declined, fine.'},
    ])

    await chat.terminals.keys('chat', 'ask me', 'Enter')
    let screen = await chat.terminals.waitFor('chat', 'Enter fill in the form (13 field(s))')
    expect(screen).toContain('MCP server everything asks: Please provide inputs for the following fields:')
    await chat.terminals.keys('chat', 'Enter')
    screen = await chat.terminals.waitFor('chat', 'String* (string)')
    // Typing answers the field, under a label that says so.
    expect(screen.join('\n')).toMatch(/^Answer:\s*$/m)
    // Required: empty is refused, and the field stays.
    await chat.terminals.keys('chat', 'Enter')
    await chat.terminals.waitFor('chat', 'String is required')
    await chat.terminals.keys('chat', 'Ada', 'Enter')
    await chat.terminals.waitFor('chat', 'Boolean (y/n)')
    await chat.terminals.keys('chat', 'y', 'Enter', 'Enter', 'ada@example.com', 'Enter', 'Enter', 'Enter')
    await chat.terminals.waitFor('chat', 'Integer (integer 1-100; empty: 42)')
    await chat.terminals.keys('chat', '500', 'Enter')
    await chat.terminals.waitFor('chat', 'at most 100')
    await chat.terminals.keys('chat', 'BSpace', 'BSpace', 'BSpace', '7', 'Enter', 'Enter')
    screen = await chat.terminals.waitFor('chat', '6) Phoebe')
    await chat.terminals.keys('chat', '3', 'Enter', '1,2', 'Enter')
    screen = await chat.terminals.waitFor('chat', '3) Wonder Woman')
    await chat.terminals.keys('chat', '3', 'Enter', 'Enter', '2', 'Enter')
    screen = await chat.terminals.waitFor('chat', 'Thanks for the answers.')
    const text = screen.join('\n')
    for (const line of ['  String: Ada', '  Boolean: true', '  String with default: It was a dark and stormy night.'])
      expect(screen).toContain(line)
    expect(text).toContain('  Integer: 7')
    expect(text).toContain('  Titled Single Select Enum: hero-3')
    expect(text).toContain('  sent')

    // d declines: the server hears it.
    await chat.terminals.keys('chat', 'again', 'Enter')
    await chat.terminals.waitFor('chat', 'Enter fill in the form (13 field(s))')
    await chat.terminals.keys('chat', 'd')
    screen = await chat.terminals.waitFor('chat', 'Declined, fine.')
    expect(screen).toContain('  declined')
  })

  it('a sampling request is asked about as mcp_sampling for that server, and the model answers it', async () => {
    await open('sample', SAMPLE, [
      {expect: {tools_include: [SAMPLE]}, tool_calls: [{arguments: {prompt: 'a haiku'}, name: SAMPLE}]},
      {expect: {last_user_contains: 'a haiku'}, text: 'Autumn moonlight'},
      {expect: {tool_result_contains: 'Autumn moonlight'}, text: 'The server has its haiku.'},
    ])
    await chat.terminals.keys('sample', 'sample it', 'Enter')
    const screen = await chat.terminals.waitFor('sample', 'Allow mcp_sampling')
    const text = screen.join('\n')
    expect(text).toContain(
      'Allow mcp_sampling: MCP server everything asks the model: Resource trigger-sampling-request',
    )
    expect(text).toContain('a allow mcp_sampling for `everything` for this session')
    await chat.terminals.keys('sample', 'y')
    await chat.terminals.waitFor('sample', 'The server has its haiku.')
  })

  it('a URL request shows the page it would open, and opens nothing when declined', async () => {
    await open('url', URL_ELICIT, [
      {
        expect: {tools_include: [URL_ELICIT]},
        tool_calls: [{arguments: {url: 'https://example.com/login'}, name: URL_ELICIT}],
      },
      {expect: {tool_result_contains: '"action": "decline"'}, text: 'You declined the login.'},
    ])
    await chat.terminals.keys('url', 'log me in', 'Enter')
    const screen = await chat.terminals.waitFor('url', 'o open https://example.com/login in your browser')
    expect(screen).toContain('MCP server everything asks: Please open the link to complete this action.')
    await chat.terminals.keys('url', 'd')
    await chat.terminals.waitFor('url', 'You declined the login.')
  })
})
