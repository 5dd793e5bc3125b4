import {describe, expect, it} from 'vitest'

import {
  priceBook,
  requestCost,
  sessionUsage,
  spentUsd,
  totalUsage,
  turnUsage,
} from '../../../src/core/sessions/usage.js'
import type {UsageLine} from '../../../src/core/sessions/transcript.js'

const request = (model: string, input: number, output: number, turn = 1): UsageLine => ({
  at: 't',
  input_tokens: input,
  model,
  output_tokens: output,
  provider: 'p',
  turn,
  type: 'usage',
})
const prices = priceBook({big: {input: 3, output: 15}, small: {input: 0.1, output: 0.4}})

describe('usage and cost', () => {
  it('prices tokens in USD per million, to the micro-dollar', () => {
    expect(requestCost(request('big', 1000, 100), prices)).toBe(0.0045)
    expect(requestCost(request('small', 2, 2), prices)).toBe(0.000001)
    expect(requestCost(request('other', 1000, 100), prices)).toBeUndefined()
    expect(requestCost(request('big', 1000, 100), priceBook(undefined))).toBeUndefined()
  })

  it("takes the pricing setting's price over the catalog's, and the catalog's for the others", () => {
    const catalog = (r: {model: string}) => (r.model === 'other' || r.model === 'big' ? 1 : undefined)
    const book = priceBook({big: {input: 3, output: 15}}, catalog)
    expect(book.cost(request('big', 1000, 100))).toEqual({source: 'setting', usd: 0.0045})
    expect(book.cost(request('other', 1000, 100))).toEqual({source: 'catalog', usd: 1})
    expect(book.cost(request('unknown', 1000, 100))).toBeUndefined()
  })

  it("prices a setting's cached input at its cache prices, else at its input price", () => {
    const cached = {...request('private', 1000, 100), cache_read_tokens: 600, cache_write_tokens: 300}
    const book = priceBook({private: {cache_read: 0.3, cache_write: 3.75, input: 3, output: 15}})
    // 100 fresh at 3, 600 read at 0.3, 300 written at 3.75, 100 out at 15.
    expect(requestCost(cached, book)).toBe(0.003105)
    expect(requestCost(cached, priceBook({private: {input: 3, output: 15}}))).toBe(0.0045)
  })

  it('counts as spent what the priced models cost, also when another has no price', () => {
    expect(spentUsd(sessionUsage([request('big', 1000, 100), request('other', 1, 1)], prices))).toBe(0.0045)
  })

  it('sums a session across models, without a cost when one model has no price', () => {
    expect(totalUsage([request('big', 1000, 100), request('small', 10_000, 1000, 2)], prices)).toEqual({
      cost_usd: 0.0059,
      input_tokens: 11_000,
      output_tokens: 1100,
    })
    expect(totalUsage([request('big', 1000, 100), request('other', 1, 1)], prices)).toEqual({
      input_tokens: 1001,
      output_tokens: 101,
    })
    expect(totalUsage([], prices)).toEqual({input_tokens: 0, output_tokens: 0})
  })

  it('splits a session by model, each with its price and where the price came from', () => {
    const usage = sessionUsage(
      [request('big', 1000, 100), request('other', 1, 1), request('big', 1000, 100, 2)],
      prices,
    )
    expect(usage).toEqual({
      input_tokens: 2001,
      models: [
        {cost_usd: 0.009, input_tokens: 2000, model: 'big', output_tokens: 200, price: 'setting', requests: 2},
        {input_tokens: 1, model: 'other', output_tokens: 1, requests: 1},
      ],
      output_tokens: 201,
      requests: 3,
    })
  })

  it('lists each request with its turn, model and cost', () => {
    expect(turnUsage([{...request('big', 1000, 100, 2), run: 3}, request('other', 5, 6)], prices)).toEqual([
      {cost_usd: 0.0045, input_tokens: 1000, model: 'big', output_tokens: 100, provider: 'p', run: 3, turn: 2},
      {input_tokens: 5, model: 'other', output_tokens: 6, provider: 'p', turn: 1},
    ])
  })
})
