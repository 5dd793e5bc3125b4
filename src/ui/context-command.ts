import type {AgentSession, ContextBudget, Message} from '@hanzo-dev/sdk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {plural} from '../cli/tool-result-lines.js'
import {isSummary} from '../core/agent/compaction-summary.js'
import {joinSections} from '../core/agent/system-prompt.js'
import {BYTES_PER_TOKEN, historyTokens, textTokens, toolSchemaTokens} from '../core/agent/token-count.js'

const TITLE_WIDTH = 60

type Row = readonly [tokens: number, label: string]

/**
 * `/context`: what every request of the session sends before the conversation, in estimated
 * tokens: each section of the system prompt, then the tool schemas. The sections are the
 * session's own (what the next turn sends), so a large AGENTS.md or import shows as itself.
 * Then the conversation: after a compaction, what its summary holds apart from what stayed
 * verbatim (the latest request, the recent turns); and the whole against the budget.
 */
export function contextReport(session: AgentSession, budget?: ContextBudget): string {
  const prompt = session.systemPrompt()
  const sections = prompt.map(({text, title}) => ({title: oneLine(title, TITLE_WIDTH), tokens: textTokens(text)}))
  const promptTokens = textTokens(joinSections(prompt))
  const tools = session.toolSpecs()
  const toolTokens = tools.reduce((sum, tool) => sum + toolSchemaTokens(tool), 0)
  const conversation = session.conversation()
  const conversationTokens = historyTokens(conversation)
  const total = promptTokens + toolTokens + conversationTokens
  const rows: Row[] = [
    ...sections.map(({title, tokens}) => [tokens, `  ${title}`] as const),
    [promptTokens, 'system prompt'],
    [toolTokens, `tool schemas (${tools.length} ${tools.length === 1 ? 'tool' : 'tools'})`],
    [promptTokens + toolTokens, 'sent with every request, before the conversation'],
    ...conversationRows(conversation),
    [conversationTokens, `conversation (${plural(conversation.length, 'message')})`],
    [total, budgetLabel(total, budget)],
  ]
  const figures = rows.map(([tokens]) => tokens.toLocaleString('en-US'))
  const width = Math.max(...figures.map((figure) => figure.length))
  return [
    `Context in estimated tokens (${BYTES_PER_TOKEN} bytes a token):`,
    ...rows.map(([, label], index) => `  ${figures[index].padStart(width)}  ${label}`),
  ].join('\n')
}

/** After a compaction: the summary, then what was kept verbatim after it. */
function conversationRows(conversation: readonly Message[]): Row[] {
  const at = conversation.findLastIndex((message) => isSummary(message))
  if (at === -1) return []
  const after = conversation.slice(at + 1)
  const request = after[0]?.role === 'user' ? after[0] : undefined
  const recent = request ? after.slice(1) : after
  return [
    [historyTokens([conversation[at]]), '  summary of the compacted conversation'],
    ...(request ? [[historyTokens([request]), '  the latest request, verbatim'] as const] : []),
    [historyTokens(recent), `  recent turns, verbatim (${plural(recent.length, 'message')})`],
  ]
}

function budgetLabel(total: number, budget?: ContextBudget): string {
  if (budget?.tokens === undefined)
    return budget?.source === 'off'
      ? 'in all (automatic compaction is off: auto_compact)'
      : 'in all (no automatic compaction: the context window is unknown; set max_tokens)'
  const of = {catalog: "the model's context window", max_tokens: 'max_tokens', pricing: `pricing's context_window`}[
    budget.source
  ]
  const share = Math.round((100 * total) / budget.tokens)
  return `in all: ${share}% of ${budget.tokens.toLocaleString('en-US')} (${of}); compaction starts at 90%`
}
