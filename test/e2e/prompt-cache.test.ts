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

  async function run(api: string, name: string, promptCache?: boolean): Promise<RunJson> {
    model = await startFakeModel({turns: TURNS})
    writeFakeProviderSettings(dirs.box.env.XDG_CONFIG_HOME, {api, model: name, promptCache, url: model.url})
    const result = await runCli(['run', 'what is here?', '--output-format', 'json'], {
      cwd: dirs.project,
      env: dirs.box.env,
    })
    expect(result.exitCode, result.stderr).toBe(0)
    return JSON.parse(result.stdout) as RunJson
  }

  it.each(WIRE_FORMATS)(
    '%s: the cached tokens the server reports are the run and the session usage',
    async (api, name) => {
      const result = await run(api, name, true)
      // Only Anthropic reports what the cache stored; every API reports what it served.
      const cached = {cache_read_tokens: 700, ...(api === 'anthropic_messages' && {cache_write_tokens: 700})}
      expect(result.usage).toMatchObject({...cached, input_tokens: 2100, output_tokens: 15})
      expect(result.session_usage).toMatchObject({...cached, input_tokens: 2100, output_tokens: 15})
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
