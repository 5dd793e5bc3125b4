import type {ContextBudget} from '@hanzo-dev/sdk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import type {HanzoConfig} from '../../core/config/types.js'

/**
 * `max_tokens` when set (it also budgets a model the catalog does not know), else the model's
 * context window: the `pricing` setting's for a private model, else the catalog's;
 * `auto_compact: false` turns automatic compaction off. An unknown model with neither has no budget: a guess too high overflows the model, one
 * too low throws away what it could have kept.
 */
export async function compactionBudget(
  config: Pick<HanzoConfig, 'auto_compact' | 'max_tokens' | 'pricing'>,
  provider: string,
  model: string,
): Promise<ContextBudget> {
  if (config.auto_compact === false) return {source: 'off'}
  if (config.max_tokens !== undefined) return {source: 'max_tokens', tokens: config.max_tokens}
  const set = config.pricing?.[model]?.context_window
  if (set !== undefined) return {source: 'pricing', tokens: set}
  // The catalog is a large module: loaded here, on a session's first run, not at start-up.
  const {modelInfo} = await import('../model-catalog.js')
  const window = modelInfo(provider, model)?.contextWindow
  return window ? {source: 'catalog', tokens: window} : {source: 'unknown'}
}

/** A conversation this long, on a model of unknown context window, is told it gets no automatic compaction. */
export const UNBUDGETED_NOTICE_TOKENS = 32_000

/** Said when a long conversation's model has no budget, so its overflow is no surprise. */
export function noBudgetWarning(provider: string, model: string, tokens: number): string {
  return (
    `the conversation is ${tokens.toLocaleString('en-US')} tokens and gets no automatic compaction: ` +
    `the context window of ${oneLine(`${provider}/${model}`, 80)} is unknown. ` +
    "Set max_tokens (the conversation budget, in tokens; compaction starts at 90% of it) or the model's " +
    'pricing.<model>.context_window, or auto_compact: false to silence this.'
  )
}
