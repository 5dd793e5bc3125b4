import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {CLI, runCli, useSandboxDirs} from '../helpers/cli.js'
import {runOnTerminal, Terminals} from '../helpers/terminal.js'
import {startOidcServer} from '../support/oidc/server.js'

const DOWN = '\u001B[B'
/** A line of a Node stack trace: what a user error must never show. */
const STACK = /^\s+at .+:\d+:\d+\)?$/m

/** `hanzo-dev auth login` at a terminal, as a new user meets it. */
describe('auth login on a terminal', () => {
  const dirs = useSandboxDirs('hanzo-auth-term-', 'project')
  const onTerminal = (args: string[]) => runOnTerminal(args, {cwd: dirs.project, env: dirs.box.env})

  it('offers first what works as the settings are, and stores a pasted API key without showing it', async () => {
    const login = onTerminal(['auth', 'login'])
    await login.waitFor('How to log in')
    const menu = login.output()
    // Hanzo's login works out of the box; Anthropic and OpenAI publish no OAuth client, so they are offered by key only.
    expect(menu.indexOf('hanzo: log in')).toBeLessThan(menu.indexOf('anthropic: paste an API key'))
    expect(menu).not.toContain('anthropic: log in')
    login.type(`${DOWN}${DOWN}\r`)
    await login.waitFor('API key for anthropic')
    login.type('sk-ant-terminal-test\r')
    expect(await login.exitCode, login.output()).toBe(0)
    expect(login.output()).toContain('Logged in to anthropic')
    expect(login.output()).not.toContain('sk-ant-terminal-test')
    const status = await runCli(['auth', 'status', '--json'], {cwd: dirs.project, env: dirs.box.env})
    expect(JSON.stringify(JSON.parse(status.stdout))).toContain('anthropic')
  })

  it('a login that cannot start says why and what to try, never with a stack trace', async () => {
    // No OAuth client for anthropic; an issuer nothing answers on for hanzo (as with no network).
    mkdirSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(
      join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
      JSON.stringify({providers: {hanzo: {oauth: {issuer: 'http://127.0.0.1:9'}}}}),
    )
    // A terminal with a width, where the spinner is drawn: the failure comes while it loads.
    const terminals = Terminals.create(dirs.box.env)
    try {
      for (const [provider, why] of [
        ['anthropic', 'does not know how to log in to anthropic'],
        ['openai', 'does not know how to log in to openai'],
        ['hanzo', 'Cannot reach http://127.0.0.1:9'],
      ]) {
        await terminals.open(provider, `${process.execPath} ${CLI} auth login --provider ${provider} --no-browser`, {
          cwd: dirs.project,
          width: 200,
        })
        expect(await terminals.exitStatus(provider)).toBe(1)
        const screen = (await terminals.screen(provider)).join('\n')
        expect(screen).toContain(why)
        expect(screen).toContain('Try this:')
        expect(screen).not.toMatch(STACK)
      }
    } finally {
      await terminals.close()
    }
  })

  it('a login that reaches its server shows the code, and Ctrl-C ends it cleanly', async () => {
    const server = await startOidcServer()
    mkdirSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(
      join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
      JSON.stringify({providers: {hanzo: {oauth: {client_id: server.clientId, issuer: server.issuer}}}}),
    )
    const terminals = Terminals.create(dirs.box.env)
    try {
      await terminals.open('device', `${process.execPath} ${CLI} auth login --provider hanzo --device`, {
        cwd: dirs.project,
        width: 200,
      })
      await terminals.waitFor('device', 'enter the code')
      await terminals.keys('device', 'C-c')
      const status = await terminals.exitStatus('device')
      expect(status).toBe(130)
      const screen = (await terminals.screen('device')).join('\n')
      expect(screen).toContain('Login cancelled')
      expect(screen).not.toMatch(STACK)
    } finally {
      await terminals.close()
      await server.close()
    }
  })
})
