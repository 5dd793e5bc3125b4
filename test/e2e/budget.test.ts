import {afterEach, describe, expect, it} from 'vitest'

import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {runCli, unwrapped, useSandboxDirs} from '../helpers/cli.js'
import {writeFakeProviderSettings} from '../helpers/wire-formats.js'

/** Each request costs $1 at PRICE: two tool calls, then the answer the resumed run gets. */
const USAGE = {input_tokens: 1000, output_tokens: 0}
const TURNS = [
  {tool_calls: [{arguments: {path: '.'}, name: 'fs_list'}], usage: USAGE},
  {tool_calls: [{arguments: {path: '.'}, name: 'fs_list'}], usage: USAGE},
  {text: 'Done.', usage: USAGE},
]
const PRICE = {input: 1000, output: 0}

describe('run --max-budget-usd', () => {
  const dirs = useSandboxDirs('hanzo-budget-', 'project')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  async function start(pricing: Record<string, unknown>): Promise<void> {
    model = await startFakeModel({turns: TURNS})
    const settings = {api: 'chat_completions', model: 'private-model', url: model.url}
    writeFakeProviderSettings(dirs.box.env.XDG_CONFIG_HOME, settings, {pricing})
  }

  const run = (...args: string[]) => runCli(['run', ...args], {cwd: dirs.project, env: dirs.box.env})

  it('stops before the request that would pass the budget, says what was spent, and the session carries on', async () => {
    await start({'private-model': PRICE})
    const stopped = await run('list it twice', '--max-budget-usd', '1.5', '--output-format', 'json')
    expect(stopped.exitCode).toBe(3)
    expect(unwrapped(stopped.stderr)).toContain(
      'stopped before model request 3: the session has spent $2.00 (--max-budget-usd $1.50)',
    )
    const result = JSON.parse(stopped.stdout) as {
      stop: string
      is_error: boolean
      session_id: string
      session_usage: object
    }
    expect(result).toMatchObject({is_error: true, num_turns: 2, stop: 'budget'})
    expect(result.session_usage).toMatchObject({cost_usd: 2, input_tokens: 2000})
    expect(model!.requests).toHaveLength(2)

    // Spent is the session's: the resumed run with the same budget makes no request at all.
    const still = await run('go on', '--resume', result.session_id, '--max-budget-usd', '1.5')
    expect(still.exitCode).toBe(3)
    expect(unwrapped(still.stderr)).toContain('stopped before model request 1')
    expect(model!.requests).toHaveLength(2)

    const resumed = await run('go on', '--resume', result.session_id, '--max-budget-usd', '10')
    expect(resumed.exitCode, resumed.stderr).toBe(0)
    expect(resumed.stdout).toContain('Done.')
    expect(JSON.stringify(model!.requests[2].body)).toContain('list it twice')
  })

  it('refuses to start when the model has no price, and takes only an amount above 0', async () => {
    await start({})
    const unpriced = await run('list it', '--max-budget-usd', '1')
    expect(unpriced.exitCode).toBe(2)
    expect(unwrapped(unpriced.stderr)).toContain('--max-budget-usd needs a price for private-model, and none is known')
    expect(unwrapped(unpriced.stderr)).toContain('hanzo-dev config set pricing.private-model')
    expect(unpriced.stderr).not.toMatch(/\n\s+at /)
    expect(model!.requests).toHaveLength(0)

    const zero = await run('list it', '--max-budget-usd', 'zero')
    expect(zero.exitCode).toBe(2)
    expect(unwrapped(zero.stderr)).toContain('--max-budget-usd takes an amount in US dollars above 0')
  })
})
