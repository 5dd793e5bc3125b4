import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {offSchema, StdioClient} from '../helpers/app-server-client.js'
import {runCli, unwrapped, useSandboxDirs} from '../helpers/cli.js'

const REQUEST = 'read big.txt until you are told to stop'
const read = {tool_calls: [{arguments: {path: 'big.txt'}, name: 'fs_read'}]}
const summaryRequest = {system_contains: 'You compact the conversation'}
const failingSummary = {body: {message: 'summary refused'}, expect: summaryRequest, status: 400}

/**
 * Issue 41 item 4 in `run`: a compaction is never silent. Each read of big.txt is about 1,000
 * estimated tokens, so with `max_tokens: 3300` (the system prompt and tools take about half) the
 * second read crosses 90% and every read after it crosses again.
 */
describe('automatic compaction in run', () => {
  const dirs = useSandboxDirs('hanzo-compact-', 'project')

  function setUp(settings: object, turns: Script['turns']): string {
    writeFileSync(join(dirs.project, 'big.txt'), `${'x'.repeat(79)}\n`.repeat(50))
    const dir = join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo')
    mkdirSync(dir, {recursive: true})
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings))
    const script = join(dirs.box.home, 'script.json')
    writeFileSync(script, JSON.stringify({turns}))
    return script
  }

  const run = (script: string, ...args: string[]) =>
    runCli(['run', REQUEST, '--fake-model', script, ...args], {cwd: dirs.project, env: dirs.box.env})

  it('stream-json: a compaction item when it starts and another when it is done, with what it kept', async () => {
    const script = setUp({max_tokens: 3300, reserve_recent: 1}, [
      read,
      read,
      {expect: summaryRequest, text: 'SUMMARY-OK: the user wants big.txt read.'},
      {expect: {last_user_contains: REQUEST}, text: 'Done.'},
    ])
    const result = await run(script, '--output-format', 'stream-json')
    expect(result.exitCode, result.stderr).toBe(0)
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as {type: string; status?: string})
    const compaction = lines.filter((line) => line.type === 'compaction')
    const start = {budget: 3300, id: expect.any(String), tokensBefore: expect.any(Number), type: 'compaction'}
    expect(compaction).toEqual([
      {...start, status: 'running'},
      {
        ...start,
        compactedCount: 2,
        compactedTokens: expect.any(Number),
        kept: {latestRequest: true, recentTurns: 1, systemPrompt: true, todos: 0},
        status: 'completed',
        strategy: 'summary',
        tokensSaved: expect.any(Number),
      },
    ])
    expect((compaction[0] as unknown as {tokensBefore: number}).tokensBefore).toBeGreaterThan(2970)
    // Started before the summary's request (its usage line), completed before the next turn.
    const types = lines.map((line) => `${line.type}${line.status ? `:${line.status}` : ''}`)
    const started = types.indexOf('compaction:running')
    expect(types.slice(started - 1, started + 1)).toEqual(['turn_start', 'compaction:running'])
    expect(types[types.indexOf('compaction:completed') + 1]).not.toBe('compaction:running')
  })

  it('text: says it is compacting, then the record; a failing summary is a digest that says why', async () => {
    const script = setUp({max_tokens: 3300, reserve_recent: 1}, [
      read,
      read,
      failingSummary,
      {expect: {last_user_contains: REQUEST}, text: 'Done.'},
    ])
    const result = await run(script)
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/⏺ Compacting the conversation: [\d,]+ tokens of 3,300 \(\d+%\)…/)
    expect(result.stderr).toMatch(
      /⏺ compacted the conversation: 2 earlier messages \(about [\d,]+ tokens\) cut short without a summary, about [\d,]+ tokens freed; kept verbatim: the system prompt with the project instructions \(AGENTS\.md\), the latest request, the last turn\n {2}the summary call failed: summary refused$/,
    )
  })

  it('stops asking for a summary after three failures in a row, says so once, and goes on compacting', async () => {
    const script = setUp({max_tokens: 3300, reserve_recent: 1}, [
      read,
      read,
      failingSummary,
      read,
      failingSummary,
      read,
      failingSummary,
      read,
      // No summary request is made here: the script's next turn answers the agent's own request.
      {expect: {last_user_contains: REQUEST}, text: 'Done.'},
    ])
    const result = await run(script)
    expect(result, result.stderr).toMatchObject({exitCode: 0, stdout: 'Done.'})
    expect(result.stderr.match(/⏺ compacted the conversation/g)).toHaveLength(4)
    expect(result.stderr.match(/the summary call failed: summary refused/g)).toHaveLength(3)
    expect(result.stderr.match(/3 failures in a row, so the next compactions make no summary call/g)).toHaveLength(1)
    expect(result.stderr).toContain('no summary call: the last 3 failed in a row')
  })

  it('app server: item/started and item/completed of a compaction item, as the schema says', async () => {
    const script = setUp({max_tokens: 3300, reserve_recent: 1}, [
      read,
      read,
      {expect: summaryRequest, text: 'SUMMARY-OK'},
      {expect: {last_user_contains: REQUEST}, text: 'Done.'},
    ])
    const client = new StdioClient(['--fake-model', script], {cwd: dirs.project, env: dirs.box.env})
    try {
      await client.request('initialize', {clientInfo: {name: 'test'}})
      const {sessionId} = (await client.request('session/start', {cwd: dirs.project, model: 'fake-model'})).result
      const {turnId} = (await client.request('turn/start', {input: REQUEST, sessionId})).result
      await client.next('turn/completed', (p) => p.turnId === turnId)
      const items = (method: 'item/started' | 'item/completed') =>
        client.all(method, (p) => p.item.type === 'compaction').map((m) => m.params.item)
      expect(items('item/started')).toEqual([
        {budget: 3300, id: expect.any(String), status: 'running', tokensBefore: expect.any(Number), type: 'compaction'},
      ])
      expect(items('item/completed')).toEqual([
        expect.objectContaining({
          compactedCount: 2,
          id: items('item/started')[0].id,
          kept: {latestRequest: true, recentTurns: 1, systemPrompt: true, todos: 0},
          status: 'completed',
          strategy: 'summary',
        }),
      ])
      expect(offSchema(client)).toEqual([])
    } finally {
      await client.close()
    }
  })

  it("warns once that a long conversation on a model of unknown context window gets no automatic compaction; a short one or auto_compact: false doesn't", async () => {
    const short = await run(setUp({}, [{text: 'Hi.'}]))
    expect(short.exitCode, short.stderr).toBe(0)
    expect(short.stderr).not.toContain('no automatic compaction')

    const long = {text: 'Hi.', usage: {input_tokens: 40_000}}
    const result = await run(setUp({}, [long]))
    expect(result.exitCode, result.stderr).toBe(0)
    const warning = unwrapped(result.stderr)
    expect(warning).toMatch(
      /Warning: the conversation is 40,000 tokens and gets no automatic compaction: the context window of \w+\/fake-model is unknown\. Set max_tokens/,
    )
    expect(warning.match(/no automatic compaction/g)).toHaveLength(1)

    const off = await run(setUp({auto_compact: false}, [long]))
    expect(off.exitCode, off.stderr).toBe(0)
    expect(off.stderr).not.toContain('no automatic compaction')
  })
})
