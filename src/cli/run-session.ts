import type {AgentSession, TodoItem} from '@hanzo-dev/sdk'

import {noBudgetWarning, UNBUDGETED_NOTICE_TOKENS} from '../adapters/agent-session/compaction-budget.js'
import {AgentRunError} from '../core/errors.js'
import {formatUsd} from '../core/sessions/render.js'
import type {RunOutput} from './run-output.js'

export {DEFAULT_RUN_MAX_TURNS} from '../adapters/agent-session/index.js'

/**
 * `hanzo-dev run`'s task on its agent session, reported as the output format says; resolves to
 * the exit code (0 done, 1 stopped early, 3 out of budget, 130 cancelled). A run that could not go on (a model
 * error, a hook that stopped the prompt) is reported, then rethrown for the CLI to print.
 */
export async function runTask(
  session: AgentSession,
  prompt: string,
  output: RunOutput,
  options: {maxBudgetUsd?: number; maxOutputTokens?: number; plan?: readonly TodoItem[]; warn(message: string): void},
): Promise<number> {
  output.start(session.tools, session.cwd, options.plan)
  const result = await session.run(prompt, {onEvent: (event) => output.event(event)}).catch((error: unknown) => {
    if (error instanceof AgentRunError) output.fail(error.reason)
    // Any other error too: the spinner stops before the CLI prints it.
    output.close()
    throw error
  })
  output.finish(result, result.usageReport)
  const context = result.usageReport.turns.at(-1)?.input_tokens ?? 0
  // Only once a conversation is long enough for it to matter: a short run on a local model is no place for it.
  if (context >= UNBUDGETED_NOTICE_TOKENS && (await session.contextBudget()).source === 'unknown')
    options.warn(noBudgetWarning(session.provider, session.model, context))
  if (result.stop === 'cancelled') return 130
  if (result.stop === 'max_turns') {
    options.warn(`stopped after ${result.turns} model requests (--max-turns) before the task was done`)
    return 1
  }

  if (result.stop === 'budget') {
    const spent = result.usageReport.session.cost_usd
    options.warn(
      `stopped before model request ${result.turns + 1}: the session has spent ${spent === undefined ? 'its budget' : formatUsd(spent)} (--max-budget-usd ${formatUsd(options.maxBudgetUsd ?? 0)}). It is saved: hanzo-dev run --resume ${session.id} --max-budget-usd <more> "..." carries it on`,
    )
    return 3
  }

  if (result.stop === 'max_tokens') {
    const limit =
      options.maxOutputTokens === undefined ? "the server's default" : `max_output_tokens ${options.maxOutputTokens}`
    options.warn(
      `the reply was cut at the model's output limit (stop: max_tokens, ${limit}): raise it with hanzo-dev config set max_output_tokens ${suggestedOutputLimit(options.maxOutputTokens)}, or ask for a shorter answer`,
    )
    return 1
  }

  return 0
}

/** Twice the limit that was hit; with none set, a limit above most servers' defaults. */
function suggestedOutputLimit(current: number | undefined): number {
  return current === undefined ? 16_384 : current * 2
}
