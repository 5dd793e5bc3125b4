import {calcPrice, findProvider, type ModelPrice, type Usage} from '@pydantic/genai-prices'

import type {PricedRequest} from '../core/sessions/usage.js'

/**
 * What hanzo-dev knows of models it did not make: prices and context windows, from
 * `@pydantic/genai-prices`, which ships its data inside the package (no network; a newer
 * catalog comes with an upgrade of the package). It is a ~0.8 MB module: import this file
 * only when a price or a window is wanted (src/adapters/prices.ts), never at start-up.
 */

/** A model as the catalog knows it; prices in USD per million tokens (the base price of a tiered one). */
export interface ModelInfo {
  /** The catalog's id of the model it matched (`claude-sonnet-4-0` for `claude-sonnet-4-20250514`). */
  id: string
  name?: string
  contextWindow?: number
  inputPerMTok?: number
  outputPerMTok?: number
  cacheReadPerMTok?: number
  cacheWritePerMTok?: number
}

/**
 * Providers that serve other vendors' models under the vendors' ids, priced here at the
 * vendor's list price: Hanzo's gateway.
 */
const GATEWAYS = new Set(['hanzo'])

/**
 * The catalog's entry for `modelId` at `provider`, or undefined. A provider the catalog has
 * (anthropic, openai, google, groq, ...) is looked up in its own list; a gateway in every
 * vendor's; any other (a local server, a custom endpoint, the scripted model) has no catalog
 * price: a local `deepseek-r1:7b` costs nothing, although the catalog's DeepSeek API has it.
 */
export function modelInfo(provider: string, modelId: string): ModelInfo | undefined {
  const found = lookup(provider, modelId, {input_tokens: 0, output_tokens: 0})
  if (!found) return undefined
  const {model, model_price: price} = found
  const info: ModelInfo = {
    cacheReadPerMTok: base(price.cache_read_mtok),
    cacheWritePerMTok: base(price.cache_write_mtok),
    contextWindow: model.context_window,
    id: model.id,
    inputPerMTok: base(price.input_mtok),
    name: model.name,
    outputPerMTok: base(price.output_mtok),
  }
  return Object.fromEntries(Object.entries(info).filter(([, value]) => value !== undefined)) as ModelInfo
}

/** What one request cost at the catalog's prices (tiers by the request's size applied), or undefined. */
export function catalogCost(request: PricedRequest): number | undefined {
  if (request.provider === undefined) return undefined
  const usage = {
    cache_read_tokens: request.cache_read_tokens,
    cache_write_tokens: request.cache_write_tokens,
    input_tokens: request.input_tokens,
    output_tokens: request.output_tokens,
  }
  return lookup(request.provider, request.model, usage)?.total_price
}

function lookup(provider: string, modelId: string, usage: Usage) {
  if (GATEWAYS.has(provider)) return calcPrice(usage, modelId) ?? undefined
  if (!findProvider({providerId: provider})) return undefined
  return calcPrice(usage, modelId, {providerId: provider}) ?? undefined
}

function base(price: ModelPrice[string]): number | undefined {
  return typeof price === 'object' ? price.base : price
}
