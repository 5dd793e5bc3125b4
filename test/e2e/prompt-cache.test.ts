import {afterEach, describe, expect, it} from 'vitest'

import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {runCli, useSandboxDirs} from '../helpers/cli.js'
import {WIRE_FORMATS, writeFakeProviderSettings} from '../helpers/wire-formats.js'

/** A tool call, whose prefix the cache stores, then the answer, which reads it. */
const TURNS = [
  {
    tool_calls: [{arguments: {path: '.'}, name: 'fs_list'}],
    usage: {cache_write_tokens: 700, input_tokens: 1000, output_tokens: 10},
  },
  {text: 'Nothing here.', usage: {cache_read_tokens: 700, input_tokens: 1100, output_tokens: 5}},
]

/** USD per million tokens: cached input a tenth of the input price, written a quarter more. */
const PRICE = {cache_read: 0.3, cache_write: 3.75, input: 3, output: 15}

interface RunJson {
  session_id: string
  usage: Record<string, unknown>
  session_usage: Record<string, unknown>
}

describe('prompt caching on the wire', () => {
  const dirs = useSandboxDirs('hanzo-cache-', 'project')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  async function runIn(format: string, api: string, name: string, promptCache?: boolean): Promise<string> {
    model = await startFakeModel({turns: TURNS})
    const settings = {api, model: name, promptCache, url: model.url}
    writeFakeProviderSettings(dirs.box.env.XDG_CONFIG_HOME, settings, {pricing: {[name]: PRICE}})
    const result = await runCli(['run', 'what is here?', '--output-format', format], {
      cwd: dirs.project,
      env: dirs.box.env,
    })
    expect(result.exitCode, result.stderr).toBe(0)
    return result.stdout
  }

  async function run(api: string, name: string, promptCache?: boolean): Promise<RunJson> {
    return JSON.parse(await runIn('json', api, name, promptCache)) as RunJson
  }

  it.each(WIRE_FORMATS)(
    '%s: the cached tokens the server reports are the run and the session usage',
    async (api, name) => {
      const result = await run(api, name, true)
      // Only Anthropic reports what the cache stored; every API reports what it served.
      const cached = {cache_read_tokens: 700, ...(api === 'anthropic_messages' && {cache_write_tokens: 700})}
      // Fresh input at 3, read at 0.3, written at 3.75 (Anthropic) or fresh (the others), output at 15.
      const cost =
        api === 'anthropic_messages' ? (300 * 3 + 700 * 3.75 + 400 * 3 + 700 * 0.3 + 15 * 15) / 1e6 : 0.004635
      const totals = {...cached, cost_usd: cost, input_tokens: 2100, output_tokens: 15}
      expect(result.usage).toMatchObject(totals)
      expect(result.session_usage).toMatchObject(totals)
      const bodies = model!.requests.map((request) => request.body as Record<string, unknown>)
      if (api === 'anthropic_messages') {
        // Tools, system and the one user message; then the tool result besides (prompt-prefix.test.ts says where).
        expect(bodies.map((body) => JSON.stringify(body).match(/"cache_control"/g)?.length)).toEqual([3, 4])
      } else {
        // Asked for by prompt_cache: true, as OpenAI's own API gets it unasked.
        expect(bodies.map((body) => body.prompt_cache_key)).toEqual([result.session_id, result.session_id])
      }
    },
  )

  it("stream-json: each request's usage event has its cached tokens and their price", async () => {
    const stdout = await runIn('stream-json', 'anthropic_messages', 'claude-sonnet-4-5', true)
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as {type: string})
      .filter((event) => event.type === 'usage')
    expect(events).toEqual([
      {cache_write_tokens: 700, cost_usd: 0.003675, input_tokens: 1000, output_tokens: 10, turn: 1, type: 'usage'},
      {cache_read_tokens: 700, cost_usd: 0.001485, input_tokens: 1100, output_tokens: 5, turn: 2, type: 'usage'},
    ])
  })

  it.each(WIRE_FORMATS)(
    '%s: another compatible server gets no prompt_cache_key, and prompt_cache false sends no cache_control',
    async (api, name) => {
      await run(api, name, api === 'anthropic_messages' ? false : undefined)
      for (const request of model!.requests) {
        expect(request.body).not.toHaveProperty('prompt_cache_key')
        expect(JSON.stringify(request.body)).not.toContain('cache_control')
      }
    },
  )
})
