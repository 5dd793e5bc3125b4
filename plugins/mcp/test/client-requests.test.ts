import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {makeSandbox, runCli, type Sandbox} from '../../../test/helpers/cli.js'
import type {Script} from '../../../src/testing/fake-model/script.js'
import {httpEverything} from './mcp-fixtures.js'

const ELICIT = 'mcp__everything__trigger-elicitation-request'
const SAMPLE = 'mcp__everything__trigger-sampling-request'

// A server's requests to the client in `hanzo-dev run`, as a user runs it: the built CLI, real
// server-everything (up once, over HTTP, so each run connects within the session's start-up
// wait), the scripted model (which answers the sampling request too).
describe('elicitation and sampling in headless runs', () => {
  let box: Sandbox
  let project: string
  let server: Awaited<ReturnType<typeof httpEverything>>
  const cli = (args: string[]) => runCli(args, {cwd: project, env: box.env})
  const script = (name: string, turns: Script['turns']) => {
    const file = join(box.home, `${name}.json`)
    writeFileSync(file, JSON.stringify({turns}))
    return file
  }

  const settings = (permissions: Record<string, string>) =>
    writeFileSync(
      join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
      JSON.stringify({
        mcp_servers: {everything: {url: server.url}},
        permissions: {[ELICIT]: 'allow', [SAMPLE]: 'allow', ...permissions},
      }),
    )

  const audit = () =>
    readFileSync(join(box.env.XDG_DATA_HOME, 'hanzo-dev', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as {tool_name: string; decision: string})
      .filter((record) => record.tool_name === 'mcp_sampling')
      .map((record) => record.decision)

  beforeAll(async () => {
    server = await httpEverything('streamableHttp')
    box = makeSandbox('hanzo-mcp-requests-')
    project = join(box.home, 'project')
    mkdirSync(join(project, '.git'), {recursive: true})
    mkdirSync(join(box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
  })
  afterAll(async () => {
    await server.close()
    box.cleanup()
  })

  it('a form the server asks for is declined, with a notice naming the server', async () => {
    settings({})
    const model = script('elicit', [
      {expect: {tools_include: [ELICIT]}, tool_calls: [{name: ELICIT}]},
      {expect: {tool_result_contains: 'decline'}, text: 'It was declined.'},
    ])
    const {exitCode, stderr, stdout} = await cli(['run', 'ask me', '--fake-model', model])
    expect([exitCode, stdout.trim()]).toEqual([0, 'It was declined.'])
    expect(stderr).toContain(
      'MCP server "everything" asked for input ("Please provide inputs for the following fields:"); declined: no one can answer in this run',
    )
  })

  it('sampling without a rule that allows it is refused with an MCP error, and audited', async () => {
    settings({})
    const model = script('refused', [
      {expect: {tools_include: [SAMPLE]}, tool_calls: [{arguments: {prompt: 'a haiku'}, name: SAMPLE}]},
      {expect: {tool_result_contains: 'hanzo-dev did not sample'}, text: 'Refused.'},
    ])
    const {exitCode, stdout} = await cli(['run', 'sample', '--fake-model', model])
    expect([exitCode, stdout.trim()]).toEqual([0, 'Refused.'])
    expect(audit()).toEqual(['deny'])
  })

  it('mcp_sampling(server) allowed: the session model answers, its tokens counted as MCP sampling', async () => {
    settings({'mcp_sampling(everything)': 'allow'})
    const model = script('sampled', [
      {expect: {tools_include: [SAMPLE]}, tool_calls: [{arguments: {maxTokens: 50, prompt: 'a haiku'}, name: SAMPLE}]},
      {
        // The server's maxTokens is the reply's limit.
        expect: {
          last_user_contains: 'a haiku',
          max_output_tokens_at_most: 50,
          system_contains: 'You are a helpful test server.',
        },
        text: 'Autumn moonlight',
        usage: {input_tokens: 30, output_tokens: 4},
      },
      {expect: {tool_result_contains: 'Autumn moonlight'}, text: 'The server got its haiku.'},
    ])
    const run = await cli(['run', 'sample', '--fake-model', model, '--output-format', 'json'])
    expect([run.exitCode, run.stderr]).toEqual([0, ''])
    const {result, session_id: id} = JSON.parse(run.stdout) as {result: string; session_id: string}
    expect(result).toBe('The server got its haiku.')
    expect(audit()).toEqual(['deny', 'allow'])
    // What /cost shows by kind: the server's request is the session's, apart from the run's turns.
    const shown = JSON.parse((await cli(['sessions', 'show', id, '--json'])).stdout) as {
      usage: {by_turn: {kind?: string; input_tokens: number}[]}
    }
    expect(shown.usage.by_turn.filter((request) => request.kind === 'sampling')).toEqual([
      expect.objectContaining({input_tokens: 30, output_tokens: 4}),
    ])
  })

  it('a deny rule refuses sampling whatever else allows it', async () => {
    settings({'mcp_sampling(every*)': 'deny'})
    const model = script('denied', [
      {expect: {tools_include: [SAMPLE]}, tool_calls: [{arguments: {prompt: 'x'}, name: SAMPLE}]},
      {expect: {tool_result_contains: 'hanzo-dev did not sample'}, text: 'Denied.'},
    ])
    const {stdout} = await cli(['run', 'sample', '--fake-model', model, '--permission-mode', 'allow-all'])
    expect(stdout.trim()).toBe('Denied.')
  })
})
