import type {TurnUsage, UsageTotals} from '@hanzo-dev/sdk'

import type {TranscriptLine, UsageLine} from './transcript.js'

/** USD per million tokens, by model id (the `pricing` setting). */
export type Pricing = Readonly<Record<string, {input: number; output: number}>>

export type {TurnUsage, UsageTotals} from '@hanzo-dev/sdk'

/**
 * What one request cost. Prices are today's (from the settings), not the ones in force when the
 * session ran: the transcript keeps tokens and model, the cost is worked out when shown.
 */
export function requestCost(
  usage: Pick<UsageLine, 'input_tokens' | 'output_tokens' | 'model'>,
  pricing: Pricing | undefined,
): number | undefined {
  const price = pricing?.[usage.model]
  return price && round((usage.input_tokens * price.input + usage.output_tokens * price.output) / 1e6)
}

/** Each request's tokens and cost; fields besides `at` and `type` (a run number) are kept. */
export function turnUsage<R extends UsageLine>(
  requests: readonly R[],
  pricing: Pricing | undefined,
): Array<TurnUsage & Omit<R, 'at' | 'type'>> {
  return requests.map(({at: _at, type: _type, ...request}) => {
    const cost = requestCost(request, pricing)
    return cost === undefined ? request : {...request, cost_usd: cost}
  })
}

export function totalUsage(requests: readonly UsageLine[], pricing: Pricing | undefined): UsageTotals {
  let input = 0
  let output = 0
  let cost: number | undefined = requests.length > 0 ? 0 : undefined
  for (const request of requests) {
    input += request.input_tokens
    output += request.output_tokens
    const requestUsd = requestCost(request, pricing)
    cost = cost === undefined || requestUsd === undefined ? undefined : cost + requestUsd
  }

  return {input_tokens: input, output_tokens: output, ...(cost === undefined ? {} : {cost_usd: round(cost)})}
}

export function usageLines(lines: readonly TranscriptLine[]): UsageLine[] {
  return lines.filter((line): line is UsageLine => line.type === 'usage')
}

/** To the micro-dollar: float sums of prices otherwise print as 0.00030000000000000003. */
function round(usd: number): number {
  return Math.round(usd * 1e6) / 1e6
}
