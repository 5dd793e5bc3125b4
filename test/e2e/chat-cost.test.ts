import {execFileSync} from 'node:child_process'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {modelInfo} from '../../src/adapters/model-catalog.js'
import {startFakeModel} from '../../src/testing/fake-model/server.js'
import {CLI, runCli, useSandboxDirs} from '../helpers/cli.js'
import {useChatTerminals} from '../helpers/terminal.js'

const identity = {
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_AUTHOR_NAME: 'T',
  GIT_COMMITTER_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 'T',
}

/** `/cost` in a real terminal (tmux): every model request of the session, whoever made it. */
describe('/cost in the chat', () => {
  const chat = useChatTerminals('hanzo-cost-')

  const below = (screen: string[], marker: string) =>
    screen.slice(screen.findLastIndex((line) => line.startsWith(marker)))

  it("counts the turns, /commit's message and /compact's summary, as sessions list does", async () => {
    const repo = join(chat.box.home, 'repo')
    mkdirSync(repo)
    const git = (...args: string[]) =>
      execFileSync('git', args, {cwd: repo, encoding: 'utf8', env: {...process.env, ...chat.box.env, ...identity}})
    git('init', '--quiet', '--initial-branch=main')
    writeFileSync(join(repo, 'README.md'), 'hello\n')
    git('add', 'README.md')
    git('commit', '--quiet', '-m', 'first')
    writeFileSync(join(repo, 'README.md'), 'hello\nworld\n')
    const model = chat.script('cost', [
      {text: 'One.', usage: {input_tokens: 100, output_tokens: 10}},
      {text: 'Two.', usage: {input_tokens: 200, output_tokens: 20}},
      {
        expect: {system_contains: 'Conventional Commits'},
        text: 'docs(readme): add a second line',
        usage: {input_tokens: 120, output_tokens: 8},
      },
      {text: 'The user asked twice; the model answered.', usage: {input_tokens: 300, output_tokens: 30}},
    ])
    const settings = join(chat.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json')
    writeFileSync(settings, JSON.stringify({reserve_recent: 1, sandbox: {mode: 'workspace'}}))
    const env = Object.entries(identity)
      .map(([key, value]) => `${key}=${value}`)
      .join(' ')
    await chat.terminals.open('cost', `${env} node ${CLI} chat --fake-model ${model}`, {cwd: repo, width: 120})
    await chat.terminals.waitFor('cost', '/help for commands')
    await chat.terminals.keys('cost', '/cost', 'Enter')
    await chat.terminals.waitFor('cost', 'No model requests in this session yet.')

    await chat.terminals.keys('cost', 'first', 'Enter')
    await chat.terminals.waitFor('cost', 'One.')
    await chat.terminals.keys('cost', 'second', 'Enter')
    await chat.terminals.waitFor('cost', 'Two.')
    await chat.terminals.keys('cost', '/commit', 'Enter')
    await chat.terminals.waitFor('cost', '] docs(readme): add a second line')
    await chat.terminals.keys('cost', '/cost', 'Enter')
    let screen = await chat.terminals.waitFor('cost', 'fake-model: 3 requests')
    expect(below(screen, '› /cost').slice(0, 7)).toEqual([
      '› /cost',
      'fake-model: 3 requests · 420 in · 38 out · price unknown',
      'By kind:',
      '  turns: 2 requests · 300 in · 30 out · price unknown',
      '  commands: 1 request · 120 in · 8 out · price unknown',
      'No price is known for fake-model: give one in USD per million tokens, as in',
      `  hanzo-dev config set pricing.fake-model '{"input": 3, "output": 15}'`,
    ])

    await chat.terminals.keys('cost', '/compact', 'Enter')
    await chat.terminals.waitFor('cost', 'Compacted')
    await chat.terminals.keys('cost', 'C-d')
    expect(await chat.terminals.exitStatus('cost')).toBe(0)

    // The same session, priced by the setting: the chat and sessions list agree.
    writeFileSync(
      settings,
      JSON.stringify({
        pricing: {'fake-model': {input: 3, output: 15}},
        reserve_recent: 1,
        sandbox: {mode: 'workspace'},
      }),
    )
    await chat.terminals.open('again', `node ${CLI} chat --continue --fake-model ${model}`, {cwd: repo, width: 120})
    await chat.terminals.waitFor('again', '/help for commands')
    await chat.terminals.keys('again', '/cost', 'Enter')
    screen = await chat.terminals.waitFor('again', 'fake-model: 4 requests')
    expect(below(screen, '› /cost').slice(1, 6)).toEqual([
      'fake-model: 4 requests · 720 in · 68 out · $0.0032 (your pricing setting)',
      'By kind:',
      // 300 × $3 + 30 × $15 per million, and so on.
      '  turns: 2 requests · 300 in · 30 out · $0.0014',
      '  compaction: 1 request · 300 in · 30 out · $0.0014',
      '  commands: 1 request · 120 in · 8 out · $0.00048',
    ])
    await chat.terminals.keys('again', 'C-d')
    expect(await chat.terminals.exitStatus('again')).toBe(0)

    const listed = await runCli(['sessions', 'list', '--json'], {cwd: repo, env: chat.box.env})
    const [session] = (JSON.parse(listed.stdout) as {sessions: Array<{turns: number; usage: unknown}>}).sessions
    expect(session).toMatchObject({turns: 4, usage: {cost_usd: 0.00318, input_tokens: 720, output_tokens: 68}})
  })
})

describe('prices from the model catalog', () => {
  const dirs = useSandboxDirs('hanzo-catalog-', 'project')

  it('prices a model the catalog knows the same in run --json and sessions show', async () => {
    const model = 'claude-sonnet-4-20250514'
    const server = await startFakeModel({turns: [{text: 'Hi.', usage: {input_tokens: 2000, output_tokens: 100}}]})
    try {
      const cli = (args: string[]) => runCli(args, {cwd: dirs.project, env: dirs.box.env})
      const run = await cli(['run', 'hello', '--base-url', server.url, '--model', model, '--output-format', 'json'])
      expect(run.exitCode, run.stderr).toBe(0)
      const {inputPerMTok, outputPerMTok} = modelInfo('hanzo', model)!
      const cost = Math.round(2000 * inputPerMTok! + 100 * outputPerMTok!) / 1e6
      const result = JSON.parse(run.stdout) as {session_id: string; usage: unknown; session_usage: unknown}
      expect(result.usage).toMatchObject({by_turn: [{cost_usd: cost, provider: 'hanzo'}], cost_usd: cost})
      expect(result.session_usage).toEqual({cost_usd: cost, input_tokens: 2000, output_tokens: 100})
      const shown = await cli(['sessions', 'show', result.session_id, '--json'])
      expect(JSON.parse(shown.stdout)).toMatchObject({usage: {cost_usd: cost, input_tokens: 2000, output_tokens: 100}})
    } finally {
      await server.close()
    }
  })
})
