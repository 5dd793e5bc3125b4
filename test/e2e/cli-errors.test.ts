import {spawnSync} from 'node:child_process'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {CLI, makeSandbox, REPO_ROOT, runCli, type Sandbox, unwrapped} from '../helpers/cli.js'
import {runOnTerminal} from '../helpers/terminal.js'

// What a new user hits first (issue 12): wrong flags, typos, stray words and Ctrl-C give one
// clear message and an exit code a script can use, never oclif's internals or a stack trace.
const STACK = /\n\s+at .*(\.js|\.ts):\d+|node:internal/

describe('wrong flags and arguments', () => {
  let box: Sandbox
  const run = (...args: string[]) => runCli(args, {cwd: box.home, env: box.env})
  beforeEach(() => {
    box = makeSandbox()
  })
  afterEach(() => box.cleanup())

  it.each([
    [['config', 'list', '--json', '--bogus'], 'Nonexistent flag: --bogus'],
    [['sessions', 'show', '--json'], 'Missing 1 required arg'],
    [['doctor', '--json', '--foo'], 'Nonexistent flag: --foo'],
    [['doctor', 'extra', '--json'], 'Unexpected argument: extra'],
    // Plugin commands extend oclif's own Command: the same small error.
    [['mcp', 'list', '--json', '--bogus'], 'Nonexistent flag: --bogus'],
    [['sandbox', 'status', 'extra', '--json'], 'Unexpected argument: extra'],
  ])('%j: a small JSON error on stdout, exit 2, no internals', async (args, message) => {
    const {exitCode, stderr, stdout} = await run(...args)
    expect(exitCode).toBe(2)
    const {error} = JSON.parse(stdout)
    expect(Object.keys(error).sort()).toEqual(['exit', 'message'])
    expect(error).toMatchObject({exit: 2, message: expect.stringContaining(message)})
    expect(stdout).not.toContain(REPO_ROOT)
    expect(stdout).not.toContain(box.home)
    expect(stderr).toBe('')
  })

  it.each([
    [['doctor', 'extra'], 'hanzo-dev doctor'],
    [['config', 'list', 'extra'], 'hanzo-dev config list'],
  ])('%j: "Unexpected argument: extra" and the usage, exit 2', async (args, usage) => {
    const {exitCode, stderr, stdout} = await run(...args)
    expect(exitCode).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toContain('Unexpected argument: extra')
    expect(stderr).toContain(`$ ${usage} [--json]`)
    expect(stderr).not.toContain('not a hanzo-dev command')
    expect(stderr).not.toMatch(STACK)
  })

  it.each([
    [['confg'], 'confg is not a hanzo-dev command. Did you mean config?'],
    [['auth', 'logn'], 'auth logn is not a hanzo-dev command. Did you mean auth login?'],
    [['sesions'], 'sesions is not a hanzo-dev command. Did you mean sessions?'],
    [['confg', 'get', 'model'], 'confg get is not a hanzo-dev command. Did you mean config get?'],
  ])('off a terminal, %j suggests the command meant, exit 2', async (args, message) => {
    const {exitCode, stderr, stdout} = await run(...args)
    expect(exitCode).toBe(2)
    expect(stdout).toBe('')
    expect(unwrapped(stderr)).toContain(message)
    expect(stderr).not.toMatch(STACK)
  })

  it('suggests nothing far from what was typed, and says where the commands are', async () => {
    const root = await run('xyzzy')
    expect(root.exitCode).toBe(2)
    expect(unwrapped(root.stderr)).toContain(
      'xyzzy is not a hanzo-dev command. Run hanzo-dev --help for a list of commands.',
    )
    expect(root.stderr).not.toContain('Did you mean')

    const topic = await run('config', 'xyzzy')
    expect(topic.exitCode).toBe(2)
    expect(unwrapped(topic.stderr)).toContain('Run hanzo-dev config --help for a list of commands.')
  })

  it('with --json, an unknown command is the same small JSON error on stdout, exit 2', async () => {
    const {exitCode, stderr, stdout} = await run('confg', '--json')
    expect(exitCode).toBe(2)
    expect(stderr).toBe('')
    expect(JSON.parse(stdout)).toEqual({
      error: {exit: 2, message: 'confg is not a hanzo-dev command. Did you mean config?'},
    })
  })

  it('names a flag the CLI itself does not take as a flag, not as a command', async () => {
    const {exitCode, stderr} = await run('--bogus')
    expect(exitCode).toBe(2)
    expect(unwrapped(stderr)).toContain('Nonexistent flag: --bogus. Run hanzo-dev --help for a list of commands.')
  })

  it('-h shows the help, as --help does', async () => {
    const short = await run('-h')
    expect(short.exitCode).toBe(0)
    expect(short.stdout).toBe((await run('--help')).stdout)
    expect(short.stdout).toContain('USAGE')

    const command = await run('config', 'list', '-h')
    expect(command.exitCode).toBe(0)
    expect(command.stdout).toContain('$ hanzo-dev config list')
  })

  it('ends quietly with 0 when the reader closes the pipe early (| head -1)', async () => {
    for (const args of ['--help', 'config list']) {
      const piped = spawnSync(
        'bash',
        ['-c', `"${process.execPath}" "${CLI}" ${args} | head -1; exit \${PIPESTATUS[0]}`],
        {encoding: 'utf8', env: {...box.env, PATH: process.env.PATH}},
      )
      expect(piped.status, piped.stderr).toBe(0)
      expect(piped.stdout.split('\n').filter(Boolean)).toHaveLength(1)
      expect(piped.stderr).toBe('')
    }
  })
})

describe('on a terminal', () => {
  let box: Sandbox
  let model: string
  beforeEach(() => {
    box = makeSandbox()
    model = join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json')
  })
  afterEach(() => box.cleanup())
  const start = (...args: string[]) => runOnTerminal(args, {cwd: box.home, env: box.env})

  it('runs the suggested command when the question is accepted', async () => {
    const term = start('confg', 'path')
    await term.waitFor('Did you mean config path?')
    term.type('\r')
    expect(await term.exitCode).toBe(0)
    expect(term.output()).toContain(model)
    expect(term.output()).not.toMatch(STACK)
  })

  it('shows the usage of the suggested command when it is missing an argument, no stack trace', async () => {
    const term = start('rn')
    await term.waitFor('Did you mean run?')
    term.type('\r')
    expect(await term.exitCode).toBe(2)
    expect(term.output()).toContain('Missing 1 required arg')
    expect(term.output()).toContain('$ hanzo-dev run PROMPT')
    expect(term.output()).not.toMatch(STACK)
  })

  it('exits 2 when the suggestion is declined', async () => {
    const term = start('rn')
    await term.waitFor('Did you mean run?')
    term.type('n\r')
    expect(await term.exitCode).toBe(2)
    expect(term.output()).toContain('Run hanzo-dev --help for a list of commands.')
  })

  it.each([
    [['rn'], 'Did you mean run?'],
    [['auth', 'login'], 'How to log in'],
  ])('Ctrl-C at the prompt of %j: "Cancelled", exit 130', async (args, prompt) => {
    const term = start(...args)
    await term.waitFor(prompt)
    term.type('\u0003')
    expect(await term.exitCode).toBe(130)
    expect(term.output()).toContain('Error: Cancelled')
    expect(term.output()).not.toContain('ExitPromptError')
    expect(term.output()).not.toMatch(STACK)
  })
})
