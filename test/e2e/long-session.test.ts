import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import {SUMMARY_MARKER} from '../../src/core/agent/compaction-summary.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {runCli, useSandboxDirs} from '../helpers/cli.js'

const REQUEST = 'read big.txt twice and tell me its size'

/** A collector on 127.0.0.1 that keeps every batch of spans it is sent. */
async function startCollector(): Promise<{url: string; items: Array<Record<string, unknown>>; server: Server}> {
  const items: Array<Record<string, unknown>> = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    req.on('end', () => {
      items.push(...(JSON.parse(body) as {data: Array<Record<string, unknown>>}).data)
      res.writeHead(200).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {items, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`}
}

/**
 * issue 7's "done when", in both wire formats: a session crosses its token budget, compacts
 * (the model writes the summary), keeps the user's request and the latest turn, finishes, is
 * saved, and resumes in a new process with the compacted history; its spans reach a collector.
 */
describe.each(['chat_completions', 'anthropic_messages'] as const)('a long session over %s', (api) => {
  const dirs = useSandboxDirs('hanzo-long-', 'project')
  const closers: Array<() => Promise<unknown>> = []
  afterEach(async () => {
    for (const close of closers.splice(0)) await close()
  })

  async function fakeModel(turns: unknown[]): Promise<FakeModel> {
    const model = await startFakeModel({turns} as never)
    closers.push(() => model.close())
    return model
  }

  function settings(model: FakeModel, tracingUrl: string) {
    const dir = join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo')
    const provider = {api, api_key: 'sk-test-key', base_url: model.url}
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({
        // The system prompt and the tool schemas take about half: two reads of big.txt then cross 90%.
        max_tokens: 3300,
        provider: 'fake',
        providers: {fake: provider},
        reserve_recent: 1,
        tracing: {endpoint: tracingUrl},
      }),
    )
  }

  it('compacts, keeps the request and the recent turn, is saved, resumes, and is traced', async () => {
    writeFileSync(join(dirs.project, 'big.txt'), `${'x'.repeat(79)}\n`.repeat(50))
    const collector = await startCollector()
    closers.push(() => new Promise((resolve) => collector.server.close(resolve)))
    mkdirSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})

    const first = await fakeModel([
      {tool_calls: [{arguments: {path: 'big.txt'}, name: 'fs_read'}]},
      {tool_calls: [{arguments: {path: 'big.txt'}, name: 'fs_read'}]},
      // Past 90% of max_tokens: the summary request.
      {
        expect: {system_contains: 'You compact the conversation'},
        text: 'SUMMARY-OK: the user wants the size of big.txt; it was read twice.',
      },
      {expect: {last_user_contains: REQUEST, tool_result_contains: 'xxxx'}, text: 'It holds 50 lines.'},
    ])
    settings(first, collector.url)
    const run = await runCli(['run', REQUEST, '--output-format', 'json'], {cwd: dirs.project, env: dirs.box.env})
    expect(run.exitCode, run.stderr).toBe(0)
    const result = JSON.parse(run.stdout) as {result: string; session_id: string}
    expect(result.result).toBe('It holds 50 lines.')
    const afterCompaction = JSON.stringify(first.requests[3].body)
    expect(afterCompaction).toContain(SUMMARY_MARKER)
    expect(afterCompaction).toContain('SUMMARY-OK')
    expect(afterCompaction).toContain(REQUEST)

    const sessionsDir = join(dirs.box.env.XDG_DATA_HOME, 'hanzo-dev', 'sessions')
    const [projectDir] = readdirSync(sessionsDir)
    const lines = readFileSync(join(sessionsDir, projectDir, `${result.session_id}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines.map((line) => line.type)).toContain('compaction')

    const spanTypes = collector.items
      .filter((item) => item.object === 'trace.span')
      .map((span) => (span.span_data as {type: string}).type)
    expect(spanTypes).toEqual(expect.arrayContaining(['agent', 'generation', 'function']))
    expect(JSON.stringify(collector.items)).not.toContain('xxxx')

    const second = await fakeModel([{expect: {last_user_contains: 'and in words?'}, text: 'Four thousand.'}])
    settings(second, collector.url)
    const resumed = await runCli(['run', '--resume', result.session_id, 'and in words?'], {
      cwd: dirs.box.home,
      env: dirs.box.env,
    })
    expect(resumed, resumed.stderr).toMatchObject({exitCode: 0, stdout: 'Four thousand.'})
    const carried = JSON.stringify(second.requests[0].body)
    expect(carried).toContain('SUMMARY-OK')
    expect(carried).toContain(REQUEST)
  })
})
