import type {ToolScope} from '@hanzo-dev/sdk'
import {agentDirs, AgentFileError, loadAgents} from '@hanzo-dev/sdk/agent-files'

/** What the `task` tool can start: a built-in type or a custom agent (`.hanzo/agents/*.md`). */
export interface SubagentType {
  name: string
  /** One line the model reads to choose the type. */
  description: string
  /** Within the parent's tools: a child is never offered one its parent is not. */
  tools: ToolScope
  /** Put before the parent's system prompt sections: the child's role. */
  systemPrompt: string
  model?: string
}

const REPORT =
  'You are a subagent: another agent gave you the task below and reads only your final answer. Work on your own, then answer with what was asked, concisely, naming files as path:line.'

/** The built-in types, first in the list the model reads, in this order. */
export const BUILTIN_SUBAGENTS: readonly SubagentType[] = [
  {
    description: 'Read-only: searches and reads the workspace to answer a question (where is X, how does Y work).',
    name: 'explore',
    systemPrompt: `${REPORT} You may only read: search wide, read what matters, change nothing.`,
    tools: 'read-only',
  },
  {
    description: 'Any multi-step task with the same tools as you (search, edit, run commands).',
    name: 'general',
    systemPrompt: REPORT,
    tools: 'all',
  },
]

/** The built-in types, then the custom agents by name; a custom agent may not take a built-in's name. */
export function subagentTypes(custom: readonly SubagentType[]): {types: SubagentType[]; warnings: string[]} {
  const builtin = new Set(BUILTIN_SUBAGENTS.map((type) => type.name))
  const warnings = custom
    .filter((type) => builtin.has(type.name))
    .map((type) => `agent "${type.name}" is not offered to the task tool: ${type.name} is a built-in subagent type`)
  const rest = custom.filter((type) => !builtin.has(type.name)).sort((a, b) => a.name.localeCompare(b.name))
  return {types: [...BUILTIN_SUBAGENTS, ...rest], warnings}
}

/**
 * The agent files of the user's and, once the user trusts the project, the project's
 * `.hanzo/agents` as subagent types. Their permission mode is not theirs to set here: a child
 * answers to its parent's. A malformed file is a warning, and no custom type is offered.
 */
export async function customSubagents(
  dirs: {projectRoot: string; configDir: string; projectTrusted: boolean},
  warn: (message: string) => void,
): Promise<SubagentType[]> {
  try {
    const {agents} = await loadAgents(agentDirs(dirs.projectRoot, dirs.configDir, dirs.projectTrusted))
    return agents.map(({description, model, name, systemPrompt, tools}) => ({
      description,
      name,
      systemPrompt: `${REPORT}\n\n${systemPrompt}`,
      tools,
      ...(model ? {model} : {}),
    }))
  } catch (error) {
    if (!(error instanceof AgentFileError)) throw error
    warn(`the task tool offers no custom agents: invalid agent file ${error.message}`)
    return []
  }
}
