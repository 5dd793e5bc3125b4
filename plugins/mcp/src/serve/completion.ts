import type {CompleteResult} from '@modelcontextprotocol/sdk/types.js'

/** Completions returned at once (the protocol's own cap). */
const COMPLETION_MAX = 100

/** An argument of a served prompt or template, as completion/complete names it with what is typed so far. */
export type Completer = (argument: {name: string; value: string}) => Promise<CompleteResult>

/** The candidates that start with what is typed, at most the protocol's cap, saying how many there are. */
export function completeFrom(candidates: readonly string[], typed: string): CompleteResult {
  const matching = candidates.filter((candidate) => candidate.startsWith(typed))
  return {
    completion: {
      hasMore: matching.length > COMPLETION_MAX,
      total: matching.length,
      values: matching.slice(0, COMPLETION_MAX),
    },
  }
}
