import type {HanzoConfig} from '../../core/config/types.js'
import {UserError} from '../../core/errors.js'
import {spentUsd} from '../../core/sessions/usage.js'
import {loadPrices} from '../prices.js'
import type {SessionRecording} from './recording.js'

/**
 * `maxBudgetUsd` as a check made before each model request: what is spent is every request the
 * session made, earlier runs', children's and side calls' included (they all count in the
 * recording). A model without a price could run past any budget unseen: refused before the
 * session starts, with how to give it a price.
 */
export async function sessionBudget(
  limit: number,
  config: HanzoConfig,
  recording: SessionRecording,
  model: {model: string; provider: string},
): Promise<() => boolean> {
  const prices = await loadPrices(config.pricing)
  if (prices.cost({...model, input_tokens: 0, output_tokens: 0}) === undefined)
    throw new UserError(`--max-budget-usd needs a price for ${model.model}, and none is known`, {
      exitCode: 2,
      hint: `give one in USD per million tokens: hanzo-dev config set pricing.${model.model} '{"input": 3, "output": 15}'`,
    })
  return () => spentUsd(recording.usage(prices)) >= limit
}
