import type {AgentSession} from '@hanzo-dev/sdk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {joinSections} from '../core/agent/system-prompt.js'
import {BYTES_PER_TOKEN, textTokens, toolSchemaTokens} from '../core/agent/token-count.js'

const TITLE_WIDTH = 60

/**
 * `/context`: what every request of the session sends before the conversation, in estimated
 * tokens: each section of the system prompt, then the tool schemas. The sections are the
 * session's own (what the next turn sends), so a large AGENTS.md or import shows as itself.
 */
export function contextReport(session: AgentSession): string {
  const prompt = session.systemPrompt()
  const sections = prompt.map(({text, title}) => ({title: oneLine(title, TITLE_WIDTH), tokens: textTokens(text)}))
  const promptTokens = textTokens(joinSections(prompt))
  const tools = session.toolSpecs()
  const toolTokens = tools.reduce((sum, tool) => sum + toolSchemaTokens(tool), 0)
  const rows = [
    ...sections.map(({title, tokens}) => [tokens, `  ${title}`] as const),
    [promptTokens, 'system prompt'] as const,
    [toolTokens, `tool schemas (${tools.length} ${tools.length === 1 ? 'tool' : 'tools'})`] as const,
    [promptTokens + toolTokens, 'sent with every request, before the conversation'] as const,
  ]
  const figures = rows.map(([tokens]) => tokens.toLocaleString('en-US'))
  const width = Math.max(...figures.map((figure) => figure.length))
  return [
    `Context in estimated tokens (${BYTES_PER_TOKEN} bytes a token):`,
    ...rows.map(([, label], index) => `  ${figures[index].padStart(width)}  ${label}`),
  ].join('\n')
}
