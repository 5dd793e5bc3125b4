import {describe, expect, it} from 'vitest'

import {requestCost, totalUsage, turnUsage} from '../../../src/core/sessions/usage.js'
import type {UsageLine} from '../../../src/core/sessions/transcript.js'

const request = (model: string, input: number, output: number, turn = 1): UsageLine => ({
  at: 't',
  input_tokens: input,
  model,
  output_tokens: output,
  turn,
  type: 'usage',
})
const pricing = {big: {input: 3, output: 15}, small: {input: 0.1, output: 0.4}}

describe('usage and cost', () => {
  it('prices tokens in USD per million, to the micro-dollar', () => {
    expect(requestCost(request('big', 1000, 100), pricing)).toBe(0.0045)
    expect(requestCost(request('small', 2, 2), pricing)).toBe(0.000001)
    expect(requestCost(request('other', 1000, 100), pricing)).toBeUndefined()
    expect(requestCost(request('big', 1000, 100), undefined)).toBeUndefined()
  })

  it('sums a session across models, without a cost when one model has no price', () => {
    expect(totalUsage([request('big', 1000, 100), request('small', 10_000, 1000, 2)], pricing)).toEqual({
      cost_usd: 0.0059,
      input_tokens: 11_000,
      output_tokens: 1100,
    })
    expect(totalUsage([request('big', 1000, 100), request('other', 1, 1)], pricing)).toEqual({
      input_tokens: 1001,
      output_tokens: 101,
    })
    expect(totalUsage([], pricing)).toEqual({input_tokens: 0, output_tokens: 0})
  })

  it('lists each request with its turn, model and cost', () => {
    expect(turnUsage([{...request('big', 1000, 100, 2), run: 3}, request('other', 5, 6)], pricing)).toEqual([
      {cost_usd: 0.0045, input_tokens: 1000, model: 'big', output_tokens: 100, run: 3, turn: 2},
      {input_tokens: 5, model: 'other', output_tokens: 6, turn: 1},
    ])
  })
})
