import type {AgentSession} from '@hanzo-dev/sdk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {joinSections} from '../agent/system-prompt.js'
import {BYTES_PER_TOKEN, textTokens, toolSchemaTokens} from '../agent/token-count.js'

/** `hanzo-dev tools --json`: what a session here sends with every request, before the conversation. */
export interface ToolSurface {
  tools: Array<{name: string; source: string; mutating: boolean; tokens: number}>
  systemPrompt: {tokens: number; sections: Array<{title: string; tokens: number}>}
  toolTokens: number
  totalTokens: number
}

/** The session's offered tools in the order the model sees them, and the estimated tokens each costs. */
export function toolSurface(session: AgentSession): ToolSurface {
  const tools = session.toolSpecs().map((tool) => ({
    mutating: tool.mutating,
    name: tool.name,
    source: tool.source ?? 'builtin',
    tokens: toolSchemaTokens(tool),
  }))
  const prompt = session.systemPrompt()
  const systemPrompt = {
    sections: prompt.map(({text, title}) => ({title, tokens: textTokens(text)})),
    tokens: textTokens(joinSections(prompt)),
  }
  const toolTokens = tools.reduce((sum, tool) => sum + tool.tokens, 0)
  return {systemPrompt, toolTokens, tools, totalTokens: systemPrompt.tokens + toolTokens}
}

const NAME_WIDTH = 40

/** One row a tool, then the totals; names and sources come from plugins, so through the printer. */
export function renderToolSurface(surface: ToolSurface): string {
  const figure = (tokens: number) => tokens.toLocaleString('en-US')
  const width = figure(surface.totalTokens).length
  const names = surface.tools.map((tool) => oneLine(tool.name, NAME_WIDTH))
  const nameWidth = Math.max(4, ...names.map((name) => name.length))
  const count = surface.tools.length
  return [
    `The tools a session here offers, in the order the model sees them (estimated tokens, ${BYTES_PER_TOKEN} bytes a token):`,
    ...surface.tools.map(
      (tool, i) =>
        `  ${figure(tool.tokens).padStart(width)}  ${names[i].padEnd(nameWidth)}  ${tool.mutating ? 'changes' : 'reads  '}  ${oneLine(tool.source, NAME_WIDTH)}`,
    ),
    '',
    `  ${figure(surface.systemPrompt.tokens).padStart(width)}  system prompt (${surface.systemPrompt.sections.length} sections)`,
    `  ${figure(surface.toolTokens).padStart(width)}  tool schemas (${count} ${count === 1 ? 'tool' : 'tools'})`,
    `  ${figure(surface.totalTokens).padStart(width)}  sent with every request, before the conversation`,
  ].join('\n')
}
