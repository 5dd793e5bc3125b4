import type {
  KindUsage,
  ModelUsage,
  PriceSource,
  RequestKind,
  SessionUsage,
  TurnUsage,
  UsageTotals,
} from '@hanzo-dev/sdk'

import type {TranscriptLine, UsageLine} from './transcript.js'

/**
 * USD per million tokens, by model id (the `pricing` setting). Cache prices left out are the
 * input price: a private model's cache discount is not guessed.
 */
export type Pricing = Readonly<
  Record<string, {input: number; output: number; cache_read?: number; cache_write?: number; context_window?: number}>
>

export type {KindUsage, ModelUsage, PriceSource, SessionUsage, TurnUsage, UsageTotals} from '@hanzo-dev/sdk'

/** What a request is priced by. */
export type PricedRequest = Pick<
  UsageLine,
  'input_tokens' | 'output_tokens' | 'cache_read_tokens' | 'cache_write_tokens' | 'model' | 'provider'
>

/**
 * What model requests cost. Prices are today's, not the ones in force when the session ran: the
 * transcript keeps tokens, model and provider, the cost is worked out when shown.
 */
export interface Prices {
  /** In USD; undefined when no price is known for the request's model. */
  cost(request: PricedRequest): {usd: number; source: PriceSource} | undefined
}

/** The catalog's price of a request, when it knows the model (src/adapters/model-catalog.ts). */
export type CatalogCost = (request: PricedRequest) => number | undefined

/** The `pricing` setting's price of a model, else the catalog's: a setting is how a user corrects or adds one. */
export function priceBook(pricing: Pricing | undefined, catalog?: CatalogCost): Prices {
  return {
    cost(request) {
      const price = pricing?.[request.model]
      if (price) return {source: 'setting', usd: settingCost(request, price)}
      const usd = catalog?.(request)
      return usd === undefined ? undefined : {source: 'catalog', usd}
    },
  }
}

/** Cached input at the cache's prices, the rest of the input at the input price. */
function settingCost(request: PricedRequest, price: Pricing[string]): number {
  const read = request.cache_read_tokens ?? 0
  const write = request.cache_write_tokens ?? 0
  const fresh = Math.max(0, request.input_tokens - read - write)
  return (
    (fresh * price.input +
      read * (price.cache_read ?? price.input) +
      write * (price.cache_write ?? price.input) +
      request.output_tokens * price.output) /
    1e6
  )
}

export function requestCost(request: PricedRequest, prices: Prices): number | undefined {
  const cost = prices.cost(request)
  return cost && round(cost.usd)
}

/** Each request's tokens and cost; fields besides `at` and `type` (a run number) are kept. */
export function turnUsage<R extends UsageLine>(
  requests: readonly R[],
  prices: Prices,
): Array<TurnUsage & Omit<R, 'at' | 'type'>> {
  return requests.map(({at: _at, type: _type, ...request}) => {
    const cost = requestCost(request, prices)
    return cost === undefined ? request : {...request, cost_usd: cost}
  })
}

export function totalUsage(requests: readonly UsageLine[], prices: Prices): UsageTotals {
  const {kinds: _kinds, models: _models, requests: _requests, ...totals} = sessionUsage(requests, prices)
  return totals
}

/**
 * The requests' tokens, in all and by model. A total's cost is absent when a request in it has
 * no price: a partial sum would read as the whole cost.
 */
export function sessionUsage(requests: readonly UsageLine[], prices: Prices): SessionUsage {
  const models = new Map<string, ModelUsage & {unpriced: boolean}>()
  for (const request of requests) {
    const model = models.get(request.model) ?? {
      input_tokens: 0,
      model: request.model,
      output_tokens: 0,
      requests: 0,
      unpriced: false,
    }
    models.set(request.model, model)
    model.requests++
    model.input_tokens += request.input_tokens
    model.output_tokens += request.output_tokens
    if (request.cache_read_tokens) model.cache_read_tokens = (model.cache_read_tokens ?? 0) + request.cache_read_tokens
    if (request.cache_write_tokens)
      model.cache_write_tokens = (model.cache_write_tokens ?? 0) + request.cache_write_tokens
    const cost = prices.cost(request)
    if (cost) {
      model.cost_usd = (model.cost_usd ?? 0) + cost.usd
      model.price ??= cost.source
    } else {
      model.unpriced = true
    }
  }

  const byModel = [...models.values()].map(({unpriced, ...model}): ModelUsage => {
    if (unpriced || model.cost_usd === undefined) {
      const {cost_usd: _cost, price: _price, ...tokens} = model
      return tokens
    }

    return {...model, cost_usd: round(model.cost_usd)}
  })
  const kinds = KINDS.map((kind) => kindUsage(kind, requests, prices)).filter((usage) => usage.requests > 0)
  return {
    input_tokens: sum(byModel, (model) => model.input_tokens),
    output_tokens: sum(byModel, (model) => model.output_tokens),
    ...cached(byModel),
    ...(byModel.length > 0 && byModel.every((model) => model.cost_usd !== undefined)
      ? {cost_usd: round(sum(byModel, (model) => model.cost_usd!))}
      : {}),
    ...(kinds.some((usage) => usage.kind !== 'turn') ? {kinds} : {}),
    models: byModel,
    requests: requests.length,
  }
}

const KINDS: readonly RequestKind[] = ['turn', 'subagent', 'compaction', 'command', 'sampling']

/** The requests of one kind, summed as the session's are. */
function kindUsage(kind: RequestKind, requests: readonly UsageLine[], prices: Prices): KindUsage {
  const own = requests.filter((request) => (request.kind ?? 'turn') === kind)
  const costs = own.map((request) => prices.cost(request)?.usd)
  const totals = {
    input_tokens: sum(own, (request) => request.input_tokens),
    output_tokens: sum(own, (request) => request.output_tokens),
    ...cached(own),
  }
  const priced = costs.every((cost) => cost !== undefined)
  return {kind, requests: own.length, ...totals, ...(priced ? {cost_usd: round(sum(costs, (cost) => cost!))} : {})}
}

/** Dollars spent so far: the priced models' costs (a model without a price adds nothing it could say). */
export function spentUsd(session: SessionUsage): number {
  return round(sum(session.models, (model) => model.cost_usd ?? 0))
}

export function usageLines(lines: readonly TranscriptLine[]): UsageLine[] {
  return lines.filter((line): line is UsageLine => line.type === 'usage')
}

/** The cached counts of some totals, each only when some were reported. */
function cached(totals: readonly UsageTotals[]): Pick<UsageTotals, 'cache_read_tokens' | 'cache_write_tokens'> {
  const read = sum(totals, (total) => total.cache_read_tokens ?? 0)
  const write = sum(totals, (total) => total.cache_write_tokens ?? 0)
  return {...(read > 0 ? {cache_read_tokens: read} : {}), ...(write > 0 ? {cache_write_tokens: write} : {})}
}

function sum<T>(items: readonly T[], value: (item: T) => number): number {
  return items.reduce((total, item) => total + value(item), 0)
}

/** To the micro-dollar: float sums of prices otherwise print as 0.00030000000000000003. */
function round(usd: number): number {
  return Math.round(usd * 1e6) / 1e6
}
