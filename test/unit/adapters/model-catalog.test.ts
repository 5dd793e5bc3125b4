import {describe, expect, it} from 'vitest'

import {catalogCost, modelInfo} from '../../../src/adapters/model-catalog.js'
import {loadPrices} from '../../../src/adapters/prices.js'

const million = {input_tokens: 1_000_000, output_tokens: 1_000_000}

describe('the model catalog (@pydantic/genai-prices, offline)', () => {
  it("knows a vendor's model by its dated id: context window and prices per million tokens", () => {
    const info = modelInfo('anthropic', 'claude-sonnet-4-20250514')
    expect(info).toMatchObject({contextWindow: 200_000, id: 'claude-sonnet-4-0'})
    expect(info?.inputPerMTok).toBeGreaterThan(0)
    expect(info?.outputPerMTok).toBeGreaterThan(info!.inputPerMTok!)
    expect(info?.cacheReadPerMTok).toBeLessThan(info!.inputPerMTok!)
    expect(modelInfo('openai', 'gpt-4o-mini')).toMatchObject({id: 'gpt-4o-mini'})
  })

  it('prices a request at the price list of its provider, a gateway at the vendor list', () => {
    const info = modelInfo('anthropic', 'claude-sonnet-4-20250514')!
    const expected = info.inputPerMTok! + info.outputPerMTok!
    expect(catalogCost({...million, model: 'claude-sonnet-4-20250514', provider: 'anthropic'})).toBeCloseTo(expected)
    expect(catalogCost({...million, model: 'claude-sonnet-4-20250514', provider: 'hanzo'})).toBeCloseTo(expected)
  })

  it('prices cache reads at the cache price, below the input price', () => {
    const request = {
      input_tokens: 1_000_000,
      model: 'claude-sonnet-4-20250514',
      output_tokens: 0,
      provider: 'anthropic',
    }
    const {cacheReadPerMTok} = modelInfo('anthropic', request.model)!
    expect(catalogCost({...request, cache_read_tokens: 1_000_000})).toBeCloseTo(cacheReadPerMTok!)
    expect(catalogCost({...request, cache_read_tokens: 1_000_000})).toBeLessThan(catalogCost(request)!)
  })

  it('prices no unknown model, nothing on a local server or a custom endpoint, nothing of an unknown provider', () => {
    expect(modelInfo('anthropic', 'no-such-model-7')).toBeUndefined()
    expect(catalogCost({...million, model: 'no-such-model-7', provider: 'hanzo'})).toBeUndefined()
    // The catalog has DeepSeek's API, but this one runs on the machine.
    expect(catalogCost({...million, model: 'deepseek-r1:7b', provider: 'ollama'})).toBeUndefined()
    expect(catalogCost({...million, model: 'gpt-4o', provider: 'scripted'})).toBeUndefined()
    expect(catalogCost({...million, model: 'gpt-4o'})).toBeUndefined()
  })

  it('lets the pricing setting override the catalog, and price a model it does not know', async () => {
    const prices = await loadPrices({
      'claude-sonnet-4-20250514': {input: 1, output: 2},
      'my-private-model': {input: 10, output: 20},
    })
    expect(prices.cost({...million, model: 'claude-sonnet-4-20250514', provider: 'anthropic'})).toEqual({
      source: 'setting',
      usd: 3,
    })
    expect(prices.cost({...million, model: 'my-private-model', provider: 'vllm'})).toEqual({source: 'setting', usd: 30})
    expect(prices.cost({...million, model: 'gpt-4o-mini', provider: 'openai'})?.source).toBe('catalog')
    expect(prices.cost({...million, model: 'no-such-model-7', provider: 'openai'})).toBeUndefined()
  })
})
