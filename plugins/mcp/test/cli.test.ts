import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {makeSandbox, runCli, type Sandbox} from '../../../test/helpers/cli.js'
import type {Script} from '../../../src/testing/fake-model/script.js'
import {EVERYTHING, freePort} from './mcp-fixtures.js'

// The mcp commands and `hanzo-dev run` as a user runs them: the built CLI, a temp home, real
// server-everything. One home for the file: the tests build on each other's settings.
describe('hanzo-dev mcp, end to end', () => {
  let box: Sandbox
  let project: string
  let closedPort: number
  const cli = (args: string[], input?: string) => runCli(args, {cwd: project, env: box.env, input})
  const script = (name: string, turns: Script['turns']) => {
    const file = join(box.home, `${name}.json`)
    writeFileSync(file, JSON.stringify({turns}))
    return file
  }

  beforeAll(() => {
    box = makeSandbox('hanzo-mcp-cli-')
    project = join(box.home, 'project')
    mkdirSync(join(project, '.git'), {recursive: true})
  })
  afterAll(() => box.cleanup())

  it('mcp add writes a stdio server and an http one; bad input is a clear error', async () => {
    closedPort = await freePort()
    expect((await cli(['mcp', 'add', 'everything', '--', process.execPath, EVERYTHING, 'stdio'])).stdout).toMatch(
      /^Added MCP server everything to .*settings\.json$/,
    )
    expect(
      (
        await cli([
          'mcp',
          'add',
          'web',
          '--url',
          `http://127.0.0.1:${closedPort}/mcp`,
          '--header',
          'Authorization: Bearer SECRET',
        ])
      ).exitCode,
    ).toBe(0)
    const settings = JSON.parse(readFileSync(join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'), 'utf8'))
    expect(settings.mcp_servers).toEqual({
      everything: {args: [EVERYTHING, 'stdio'], command: process.execPath},
      web: {headers: {Authorization: 'Bearer SECRET'}, url: `http://127.0.0.1:${closedPort}/mcp`},
    })

    const again = await cli(['mcp', 'add', 'everything', '--', 'x'])
    expect([again.exitCode, again.stderr]).toEqual([
      1,
      expect.stringContaining('An MCP server named everything is already configured'),
    ])
    const nothing = await cli(['mcp', 'add', 'empty'])
    expect([nothing.exitCode, nothing.stderr]).toEqual([
      2,
      expect.stringContaining('Give the command that starts the server after --, or --url URL'),
    ])
    const badHeader = await cli(['mcp', 'add', 'h', '--url', 'http://x/mcp', '--header', 'nocolon'])
    expect([badHeader.exitCode, badHeader.stderr]).toEqual([2, expect.stringContaining('--header takes NAME:VALUE')])
    const badName = await cli(['mcp', 'add', 'a__b', '--', 'x'])
    expect(badName.exitCode).toBe(2)
    expect(badName.stderr).toContain('must not contain "__"')
  })

  it('mcp list starts the servers and shows which connected, with their tool count, and why one failed', async () => {
    const {exitCode, stdout} = await cli(['mcp', 'list', '--json'])
    // A server failed: the list is printed all the same, and the exit code says so.
    expect(exitCode).toBe(1)
    const {servers} = JSON.parse(stdout)
    expect(servers.find((s: {name: string}) => s.name === 'everything')).toMatchObject({
      status: 'connected',
      tools: expect.any(Number),
    })
    expect(servers.find((s: {name: string}) => s.name === 'web')).toMatchObject({
      error: expect.stringMatching(
        new RegExp(
          `MCP server "web" failed starting: cannot reach http://127\\.0\\.0\\.1:${closedPort} \\(ECONNREFUSED\\)`,
        ),
      ),
      status: 'failed',
    })
    expect(stdout).not.toContain('SECRET')
    const text = await cli(['mcp', 'list'])
    expect(text.exitCode).toBe(1)
    expect(text.stdout).toMatch(/^everything +enabled +stdio .*connected, \d+ tools$/m)
    expect(text.stdout).toMatch(/^ +failed: MCP server "web" failed starting/m)
  })

  it('mcp get shows one server: its settings (secrets redacted), and whether it connects', async () => {
    const everything = await cli(['mcp', 'get', 'everything', '--json'])
    expect(everything.exitCode).toBe(0)
    expect(JSON.parse(everything.stdout)).toEqual({
      // A path is shown; a plain word may be a secret after a flag (-p pw), so it is not.
      args: [EVERYTHING, '[redacted]'],
      command: process.execPath,
      enabled: true,
      name: 'everything',
      // That it answered ping; how fast is the machine's business.
      ping_ms: expect.any(Number),
      startup_timeout_ms: 30_000,
      status: 'connected',
      tier: 'user',
      tool_timeout_ms: 120_000,
      tools: expect.any(Number),
      transport: 'stdio',
      trust_read_only_hint: false,
    })
    const web = await cli(['mcp', 'get', 'web'])
    expect(web.exitCode).toBe(1)
    expect(web.stdout).toMatch(/^url +http:\/\/127\.0\.0\.1:\d+\/mcp$/m)
    expect(web.stdout).toMatch(/^headers +Authorization=\[redacted\]$/m)
    expect(web.stdout).toMatch(/^oauth +no client set/m)
    expect(web.stdout).toMatch(/^status +failed: MCP server "web" failed starting: cannot reach/m)
    expect(web.stdout + web.stderr).not.toContain('SECRET')
    const offline = await cli(['mcp', 'get', 'web', '--no-connect', '--json'])
    expect(offline.exitCode).toBe(0)
    expect(JSON.parse(offline.stdout)).not.toHaveProperty('status')
    const unknown = await cli(['mcp', 'get', 'every'])
    expect([unknown.exitCode, unknown.stderr]).toEqual([1, expect.stringContaining('No MCP server named every')])
    expect(unknown.stderr).toContain('did you mean everything?')
    expect(unknown.stderr).not.toMatch(/\bat .*\.js:\d+/)
  })

  it('mcp tools and mcp call use the names the model sees', async () => {
    const tools = await cli(['mcp', 'tools', 'everything', '--json'])
    expect(JSON.parse(tools.stdout).tools.map((t: {name: string}) => t.name)).toContain('mcp__everything__echo')
    const call = await cli(['mcp', 'call', 'mcp__everything__echo', '--input', '{"message":"from the shell"}'])
    expect([call.exitCode, call.stdout]).toEqual([0, 'Echo: from the shell'])
    const invalid = await cli(['mcp', 'call', 'mcp__everything__echo', '--input', '{"nope":1}'])
    expect(invalid.exitCode).toBe(1)
    expect(invalid.stderr).toMatch(/message/)
    const unknown = await cli(['mcp', 'call', 'mcp__elsewhere__echo'])
    expect([unknown.exitCode, unknown.stderr]).toEqual([
      2,
      expect.stringContaining('not a tool of an enabled MCP server'),
    ])
    const notJson = await cli(['mcp', 'call', 'mcp__everything__echo', '--input', '{'])
    expect([notJson.exitCode, notJson.stderr]).toEqual([2, expect.stringContaining('--input is not JSON')])
    const unknownServer = await cli(['mcp', 'tools', 'nope'])
    expect([unknownServer.exitCode, unknownServer.stderr]).toEqual([
      2,
      expect.stringContaining('No enabled MCP server named nope'),
    ])
  })

  it('hanzo-dev run: the model calls an MCP tool through the same pipeline as the built-ins', async () => {
    const model = script('echo', [
      {
        expect: {tools_include: ['mcp__everything__echo']},
        tool_calls: [{arguments: {message: 'via the agent'}, name: 'mcp__everything__echo'}],
      },
      {expect: {has_tool_result_for: 'mcp__everything__echo'}, text: 'The server said it.'},
    ])
    // Not allowed by any rule, and no one to ask: the call is denied, as any mutating tool's.
    const denied = await cli(['run', 'echo it', '--fake-model', model])
    expect(denied.stderr).toContain('mcp__everything__echo needs approval')
    const {exitCode, stdout} = await cli(['run', 'echo it', '--fake-model', model, '--permission-mode', 'allow-all'])
    expect(exitCode).toBe(0)
    expect(stdout).toContain('The server said it.')
    const audit = readFileSync(join(box.env.XDG_DATA_HOME, 'hanzo-dev', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(audit.map((r: {tool_name: string; decision: string}) => [r.tool_name, r.decision])).toEqual([
      ['mcp__everything__echo', 'deny'],
      ['mcp__everything__echo', 'allow'],
    ])
  })

  it('a tool whose definition changed since it last ran is asked about again, whatever the rules allow', async () => {
    const pins = join(box.env.XDG_DATA_HOME, 'hanzo-dev', 'mcp', 'tool-pins.json')
    const pinned = JSON.parse(readFileSync(pins, 'utf8'))
    expect(pinned.everything.echo).toMatch(/^[\da-f]{64}$/)
    writeFileSync(pins, JSON.stringify({everything: {echo: '0'.repeat(64)}}))
    const model = script('changed', [
      {tool_calls: [{arguments: {message: 'x'}, name: 'mcp__everything__echo'}]},
      {text: 'ok'},
    ])
    const run = () => cli(['run', 'echo it', '--fake-model', model, '--permission-mode', 'allow-all', '--verbose'])
    const {stderr} = await run()
    expect(stderr).toContain('changed the description or input schema of echo since you last let it run')
    // The denial names what to run, never an empty command.
    expect(stderr).toContain('approve it with hanzo-dev mcp tools everything --approve')
    expect(stderr).not.toMatch(/with: *$/m)
    const approved = await cli(['mcp', 'tools', 'everything', '--approve'])
    expect([approved.exitCode, approved.stdout]).toEqual([
      0,
      expect.stringMatching(/^Approved \d+ tools of everything\.$/m),
    ])
    expect(JSON.parse(readFileSync(pins, 'utf8')).everything.echo).toBe(pinned.everything.echo)
    const again = await run()
    expect(again.stderr).not.toContain('changed the description')
    expect(again.exitCode).toBe(0)
    const unnamed = await cli(['mcp', 'tools', '--approve'])
    expect([unnamed.exitCode, unnamed.stderr]).toEqual([2, expect.stringContaining('--approve needs the SERVER')])
  })

  it('mcp import reads a .mcp.json, skipping names already configured and entries it cannot read', async () => {
    writeFileSync(
      join(project, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          everything: {command: 'x'},
          odd: {command: 'x', transport: 'ws'},
          second: {args: [EVERYTHING, 'stdio'], command: process.execPath},
        },
      }),
    )
    const {exitCode, stderr, stdout} = await cli(['mcp', 'import'])
    expect(exitCode).toBe(0)
    expect(stdout).toMatch(/^Added MCP server second to /)
    expect(stderr).toContain('Skipped odd: has settings hanzo-dev does not read: transport')
    expect(stderr).toContain('Skipped everything: a server with this name is already configured')
    const json = await cli(['mcp', 'import', '--json'])
    expect([json.exitCode, JSON.parse(json.stdout)]).toEqual([1, expect.objectContaining({added: []})])
    const missing = await cli(['mcp', 'import', 'nope.json'])
    expect([missing.exitCode, missing.stderr]).toEqual([1, expect.stringContaining('nope.json does not exist')])
  })

  it('mcp import keeps ${VAR} and ${VAR:-default} as written (expanded at start-up), warning by name about one unset', async () => {
    writeFileSync(
      join(project, 'vars.json'),
      JSON.stringify({
        mcpServers: {
          vars: {
            args: ['${HANZO_TEST_DIR}/data', '${HANZO_UNSET_ONE}'],
            command: '${HANZO_TEST_BIN:-node}',
            env: {TOKEN: '${HANZO_TEST_TOKEN}'},
          },
        },
      }),
    )
    const env = {...box.env, HANZO_TEST_DIR: '/srv', HANZO_TEST_TOKEN: 'tok-VALUE'}
    const {exitCode, stderr} = await runCli(['mcp', 'import', 'vars.json'], {cwd: project, env})
    expect(exitCode).toBe(0)
    // oclif wraps a warning at the terminal's width.
    expect(stderr.replaceAll(/\s*\n\s*›\s*/g, ' ')).toContain(
      'vars.json uses ${HANZO_UNSET_ONE}, which is not set and has no default: empty unless set when the server starts',
    )
    expect(stderr).not.toContain('tok-VALUE')
    const settings = JSON.parse(readFileSync(join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'), 'utf8'))
    // The token stays in the environment, out of the settings file.
    expect(settings.mcp_servers.vars).toEqual({
      args: ['${HANZO_TEST_DIR}/data', '${HANZO_UNSET_ONE}'],
      command: '${HANZO_TEST_BIN:-node}',
      env: {TOKEN: '${HANZO_TEST_TOKEN}'},
    })
    expect((await cli(['mcp', 'remove', 'vars'])).exitCode).toBe(0)
  })

  it('mcp remove takes a server out of every file that sets it', async () => {
    const {exitCode, stdout} = await cli(['mcp', 'remove', 'second'])
    expect([exitCode, stdout]).toEqual([0, expect.stringMatching(/^Removed MCP server second from /)])
    const again = await cli(['mcp', 'remove', 'second'])
    expect([again.exitCode, again.stderr]).toEqual([1, expect.stringContaining('No MCP server named second')])
  })

  it("a project's servers (a cloned repository's .hanzo/settings.json) do not start until the project is trusted", async () => {
    mkdirSync(join(project, '.hanzo'), {recursive: true})
    writeFileSync(
      join(project, '.hanzo', 'settings.json'),
      JSON.stringify({mcp_servers: {'local-tools': {args: [EVERYTHING, 'stdio'], command: process.execPath}}}),
    )
    const {stdout} = await cli(['mcp', 'list', '--json'])
    expect(JSON.parse(stdout).servers.find((s: {name: string}) => s.name === 'local-tools')).toMatchObject({
      enabled: false,
      trusted: false,
    })
    const call = await cli(['mcp', 'call', 'mcp__local-tools__echo', '--input', '{"message":"x"}'])
    expect(call.exitCode).toBe(2)
  })
})

describe('hanzo-dev mcp list: a server that never stops paging (issue 36)', () => {
  let box: Sandbox
  beforeAll(() => {
    box = makeSandbox('hanzo-mcp-endless-')
  })
  afterAll(() => box.cleanup())

  it('ends by itself, with the server failed and why, and the other servers listed', async () => {
    const endless = fileURLToPath(new URL('fixtures/endless-cursor-server.mjs', import.meta.url))
    const settings = {
      mcp_servers: {
        endless: {args: [endless], command: process.execPath},
        everything: {args: [EVERYTHING, 'stdio'], command: process.execPath},
      },
    }
    mkdirSync(join(box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'), JSON.stringify(settings))
    const {exitCode, stdout} = await runCli(['mcp', 'list', '--json'], {cwd: box.home, env: box.env})
    expect(exitCode).toBe(1)
    const {servers} = JSON.parse(stdout)
    expect(servers.find((s: {name: string}) => s.name === 'endless')).toMatchObject({
      error: 'MCP server "endless" lists more than 100 pages of tools (it may never stop)',
      status: 'failed',
    })
    expect(servers.find((s: {name: string}) => s.name === 'everything')).toMatchObject({status: 'connected'})
  })
})

describe("a project's .mcp.json (Claude Code's file)", () => {
  let box: Sandbox
  let project: string
  beforeAll(() => {
    box = makeSandbox('hanzo-mcp-json-')
    project = join(box.home, 'project')
    mkdirSync(join(project, '.git'), {recursive: true})
    const mcpJson = {
      mcpServers: {
        everything: {
          args: ['${EVERYTHING_JS}', '${EVERYTHING_MODE:-stdio}'],
          command: process.execPath,
          env: {GREETING: '${UNSET_GREETING}'},
        },
        odd: {command: 'x', cwd: '/tmp'},
      },
    }
    writeFileSync(join(project, '.mcp.json'), JSON.stringify(mcpJson))
  })
  afterAll(() => box.cleanup())
  const cli = (args: string[]) => runCli(args, {cwd: project, env: {...box.env, EVERYTHING_JS: EVERYTHING}})

  it('is read as project settings once the project is trusted, its ${VAR} expanded when the server starts', async () => {
    const before = await cli(['mcp', 'list', '--json'])
    expect(JSON.parse(before.stdout).servers.find((s: {name: string}) => s.name === 'everything')).toMatchObject({
      enabled: false,
      trusted: false,
    })
    const text = await cli(['mcp', 'list', '--offline'])
    expect(text.stdout).toMatch(/everything +not trusted +stdio \S+ \$\{EVERYTHING_JS\} \[redacted\]/)
    expect(text.stderr.replaceAll(/\s+(?:›\s+)?/g, ' ')).toContain(
      '.mcp.json: mcpServers.odd: left out: has settings hanzo-dev does not read: cwd',
    )

    expect(await cli(['trust', '--yes'])).toMatchObject({exitCode: 0})
    const after = await cli(['mcp', 'list'])
    expect(after.exitCode).toBe(0)
    expect(after.stdout).toMatch(/^everything +enabled .*\(project\) +connected, \d+ tools/)
    // The name of the unset variable, never a value.
    const tools = await cli(['mcp', 'tools', 'everything'])
    expect(tools.exitCode).toBe(0)
    expect(tools.stderr.replaceAll(/\s+(?:›\s+)?/g, ' ')).toContain(
      'MCP server "everything" uses ${UNSET_GREETING}, not set and without a default',
    )
    const get = await cli(['mcp', 'get', 'everything', '--json', '--no-connect'])
    expect(get.stdout).toContain('${EVERYTHING_JS}')
  })
})
