import type {AgentSession, ContextBudget, UsageTotals} from '@hanzo-dev/sdk'

/** What the conversation has used so far, and how big it is as the model last saw it: for the status line and `/cost`. */
export class UsageMeter {
  totals: UsageTotals = {input_tokens: 0, output_tokens: 0}
  /** The last request's input and output: the size of the conversation as the model saw it. */
  contextTokens = 0
  /** The conversation's token budget (compaction starts at 90% of it), once the session said it. */
  budget?: ContextBudget
  private asking?: Pick<AgentSession, 'contextBudget'>

  /**
   * Asks the session its budget, which depends on its model: anew for each session the chat goes
   * on with (`/model`, `/resume`); an answer for an earlier one is dropped. Unknown until then,
   * or when asking fails: the status line shows the context in tokens.
   */
  async learnBudget(session: Pick<AgentSession, 'contextBudget'>): Promise<void> {
    this.asking = session
    this.budget = undefined
    const budget = await session.contextBudget().catch(() => undefined)
    if (this.asking === session) this.budget = budget
  }

  /** A new conversation (`/clear`, another session). */
  reset(): void {
    this.totals = {input_tokens: 0, output_tokens: 0}
    this.contextTokens = 0
  }

  /** The session's own count (AgentSession.usage), which has every request and the price: after a turn or a command. */
  settle({cost_usd: cost, input_tokens: input, output_tokens: output}: UsageTotals): void {
    this.totals = {input_tokens: input, output_tokens: output, ...(cost === undefined ? {} : {cost_usd: cost})}
  }

  /** One model request's tokens, as they are reported during a turn. */
  add(request: {inputTokens: number; outputTokens: number}): void {
    this.totals = {
      ...this.totals,
      input_tokens: this.totals.input_tokens + request.inputTokens,
      output_tokens: this.totals.output_tokens + request.outputTokens,
    }
    this.contextTokens = request.inputTokens + request.outputTokens
  }
}
