import {describe, expect, it} from 'vitest'

import {renderCost} from '../../../src/core/sessions/render.js'
import {priceBook, sessionUsage} from '../../../src/core/sessions/usage.js'
import type {UsageLine} from '../../../src/core/sessions/transcript.js'

const request = (model: string, input: number, output: number): UsageLine => ({
  at: 't',
  input_tokens: input,
  model,
  output_tokens: output,
  provider: 'p',
  turn: 1,
  type: 'usage',
})

describe('/cost', () => {
  it('says so when nothing asked the model yet', () => {
    expect(renderCost(sessionUsage([], priceBook(undefined)))).toEqual(['No model requests in this session yet.'])
  })

  it('gives one line for one model, with where its price came from', () => {
    const prices = priceBook(undefined, () => 0.5)
    expect(renderCost(sessionUsage([request('m', 1000, 10), request('m', 2000, 20)], prices))).toEqual([
      'm: 2 requests · 3,000 in · 30 out · $1.00 (catalog price)',
    ])
  })

  it('says how much of the input the prompt cache read or wrote, when the server said', () => {
    const cached = {...request('m', 10_000, 10), cache_read_tokens: 8000, cache_write_tokens: 1000}
    expect(renderCost(sessionUsage([cached, request('m', 500, 5)], priceBook(undefined)))).toEqual([
      'm: 2 requests · 10,500 in (8,000 cached, 1,000 written to the cache) · 15 out · price unknown',
      'No price is known for m: give one in USD per million tokens, as in',
      `  hanzo-dev config set pricing.m '{"input": 3, "output": 15}'`,
    ])
  })

  it('splits several models, sums what is priced and says how to price the others', () => {
    const prices = priceBook({big: {input: 3, output: 15}})
    const usage = sessionUsage([request('big', 10_000, 1000), request('local:7b', 500, 50)], prices)
    expect(renderCost(usage)).toEqual([
      '2 model requests · 10,500 in · 1,050 out · $0.045 for the priced models',
      '  big: 1 request · 10,000 in · 1,000 out · $0.045 (your pricing setting)',
      '  local:7b: 1 request · 500 in · 50 out · price unknown',
      'No price is known for local:7b: give one in USD per million tokens, as in',
      `  hanzo-dev config set pricing.local:7b '{"input": 3, "output": 15}'`,
    ])
  })

  it('lists the requests by what made them, when some were not turns', () => {
    const prices = priceBook({m: {input: 3, output: 15}})
    const side = (kind: UsageLine['kind'], input: number): UsageLine => ({...request('m', input, 0), kind})
    const usage = sessionUsage(
      [request('m', 1000, 0), side('subagent', 2000), side('compaction', 3000), side('command', 4000)],
      prices,
    )
    expect(renderCost(usage).slice(1)).toEqual([
      'By kind:',
      '  turns: 1 request · 1,000 in · 0 out · $0.0030',
      '  subagents: 1 request · 2,000 in · 0 out · $0.0060',
      '  compaction: 1 request · 3,000 in · 0 out · $0.0090',
      '  commands: 1 request · 4,000 in · 0 out · $0.012',
    ])
    expect(sessionUsage([request('m', 1000, 0)], prices)).not.toHaveProperty('kinds')
  })
})
