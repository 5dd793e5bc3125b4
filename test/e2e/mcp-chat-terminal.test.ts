import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {CLI, makeSandbox, REPO_ROOT, type Sandbox} from '../helpers/cli.js'
import {Terminals} from '../helpers/terminal.js'

const EVERYTHING = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')

/** An MCP server's prompts and resources in the interactive session (server-everything from npm), on a real terminal. */
describe('hanzo-dev chat: MCP prompts and @server:uri mentions', () => {
  let box: Sandbox
  let project: string
  let terminals: Terminals

  beforeAll(() => {
    box = makeSandbox('hanzo-mcp-chat-')
    project = join(box.home, 'project')
    mkdirSync(project, {recursive: true})
    const settings = join(box.env.XDG_CONFIG_HOME, 'hanzo')
    mkdirSync(settings, {recursive: true})
    writeFileSync(
      join(settings, 'settings.json'),
      JSON.stringify({mcp_servers: {everything: {args: [EVERYTHING, 'stdio'], command: process.execPath}}}),
    )
    terminals = Terminals.create(box.env)
  })
  afterAll(async () => {
    await terminals.close()
    box.cleanup()
  })

  it('runs a prompt as a slash command with its arguments, lists it in /help, completes and attaches a mentioned resource, and follows its changes', async () => {
    const file = join(box.home, 'mcp.json')
    const turns: Script['turns'] = [
      {expect: {last_user_contains: "What's weather in El Paso, Texas?"}, text: 'Sunny in El Paso.'},
      {expect: {last_user_contains: 'Resource 7: This is a plaintext resource'}, text: 'Read resource seven.'},
      {
        expect: {last_user_contains: 'turn on updates'},
        tool_calls: [{name: 'mcp__everything__toggle-subscriber-updates'}],
      },
      {expect: {has_tool_result_for: 'mcp__everything__toggle-subscriber-updates'}, text: 'Updates are on.'},
      {
        expect: {
          last_user_contains: 'The MCP resource everything:demo://resource/dynamic/text/7 changed; it now reads',
        },
        text: 'Seen the change.',
      },
    ]
    writeFileSync(file, JSON.stringify({model: 'fake-model', turns}))
    await terminals.open('mcp', `node ${CLI} chat --fake-model ${file}`, {cwd: project, height: 50})
    await terminals.waitFor('mcp', '/help for commands')
    // A server up after the session opened still brings its prompts: ask /mcp until it is up.
    await vi.waitFor(
      async () => {
        await terminals.keys('mcp', '/mcp', 'Enter')
        expect((await terminals.screen('mcp')).join('\n')).toMatch(/everything +stdio +connected/)
      },
      {interval: 1000, timeout: 30_000},
    )
    await terminals.keys('mcp', '/help', 'Enter')
    const help = await terminals.waitFor('mcp', '/mcp__everything__args-prompt')
    expect(help.join('\n')).toMatch(/\/mcp__everything__args-prompt.*<city> \[state\]/)

    await terminals.keys('mcp', '/mcp__everything__args-prompt')
    await terminals.waitFor('mcp', '› /mcp__everything__args-prompt')
    await terminals.keys('mcp', ' "El Paso" state=Texas', 'Enter')
    await terminals.waitFor('mcp', 'Sunny in El Paso.')

    await terminals.keys('mcp', '/mcp__everything__args-prompt', 'Enter')
    await terminals.waitFor('mcp', 'missing argument: city')

    // Tab completes a prompt's argument through the server's completion/complete.
    await terminals.keys('mcp', '/mcp__everything__completable-prompt Eng', 'Tab')
    await terminals.waitFor('mcp', '› /mcp__everything__completable-prompt Engineering')
    await terminals.keys('mcp', 'C-u')

    // Tab after @ offers the server beside the files, then its resources by URI with their names.
    await terminals.keys('mcp', 'summarise @ev', 'Tab')
    await terminals.waitFor('mcp', '› summarise @everything:')
    await terminals.keys('mcp', 'demo://resource/static/document/', 'Tab')
    await terminals.waitFor('mcp', 'demo://resource/static/document/architecture.md (architecture.md)')
    await terminals.keys('mcp', 'arch', 'Tab')
    await terminals.waitFor('mcp', '› summarise @everything:demo://resource/static/document/architecture.md')
    await terminals.keys('mcp', 'C-u')

    await terminals.keys('mcp', 'summarise @everything:demo://resource/dynamic/text/7', 'Enter')
    // The mention reads through the model's tool, under the same permission rules: a resource URI
    // may reach anywhere (a fetch server's), so a read asks unless a rule allows it.
    await terminals.waitFor('mcp', 'Allow mcp_read_resource: everything: demo://resource/dynamic/text/7?')
    await terminals.keys('mcp', 'y')
    const screen = await terminals.waitFor('mcp', 'Read resource seven.')
    expect(screen).toContain('Attached everything:demo://resource/dynamic/text/7')

    // The mentioned resource is followed: server-everything says it changed once its updates are on.
    await terminals.keys('mcp', 'turn on updates', 'Enter')
    await terminals.waitFor('mcp', 'Allow mcp__everything__toggle-subscriber-updates')
    await terminals.keys('mcp', 'y')
    await terminals.waitFor('mcp', 'Updates are on.')
    await terminals.waitFor('mcp', 'resource everything:demo://resource/dynamic/text/7 changed')
    await terminals.keys('mcp', 'what changed?', 'Enter')
    await terminals.waitFor('mcp', 'Seen the change.')
    await terminals.keys('mcp', 'C-d')
  })
})
