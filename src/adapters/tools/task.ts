import {
  type AgentEvent,
  type AgentSession,
  type ToolDefinition,
  type ToolResult,
  toolError,
  toolOk,
} from '@hanzo-dev/sdk'

import {objectSchema} from './input-schema.js'
import type {SubagentType} from './subagent-types.js'
import type {Subagents} from './subagents.js'

export type TaskInput = {description: string; prompt: string; subagent_type?: string}

export const TASK_TOOL = 'task'

export interface TaskOptions {
  /** The session whose children the calls start (known once it is open, after its tools). */
  parent(): AgentSession
  types: readonly SubagentType[]
  subagents: Subagents
}

/**
 * Subagents the model calls: each call runs a child session of the parent (`session.child`),
 * so the parent's policy, approvals, hooks, sandbox and audit apply to every call the child
 * makes, and its tools are within the parent's. A child is never offered `task` itself (the
 * nesting depth is 1). It is mutating (a general child may edit), yet several calls of one turn
 * run side by side (`concurrent`): each child's own calls are checked one by one.
 */
export function taskTool(options: TaskOptions): ToolDefinition<TaskInput> {
  const names = options.types.map((type) => type.name)
  return {
    name: TASK_TOOL,
    aliases: ['Task'],
    description: [
      'Start a subagent on a self-contained task: it works on its own with fresh context and returns its final answer and a summary of what it did.',
      'Use it for wide searches and for independent pieces of work; call it several times in one turn to run subagents in parallel.',
      'The prompt must say everything the subagent needs: it sees none of this conversation.',
      `Subagent types (subagent_type, default general):\n${options.types.map((type) => `- ${type.name}: ${type.description}`).join('\n')}`,
    ].join(' '),
    inputSchema: objectSchema(
      {
        description: {description: 'The task in 3 to 6 words, shown to the user.', maxLength: 80, type: 'string'},
        prompt: {description: 'The whole task for the subagent.', type: 'string'},
        subagent_type: {enum: names, type: 'string'},
      },
      ['description', 'prompt'],
    ),
    mutating: true,
    concurrent: true,
    kind: 'other',
    describe: ({description, subagent_type: type}) => `${type ?? 'general'}: ${description}`,
    async execute(input, context) {
      const type = options.types.find((candidate) => candidate.name === (input.subagent_type ?? 'general'))
      if (!type) return toolError(`Unknown subagent_type "${input.subagent_type}": use one of ${names.join(', ')}`)
      const handle = options.subagents.start(type.name, input.description)
      if (!handle)
        return toolError(
          `${options.subagents.limit} subagents are running already, the most at once: wait for their answers, then call task again`,
        )
      const summary = new CallSummary()
      let status: 'completed' | 'failed' = 'failed'
      try {
        const child = childSession(options.parent(), type)
        const result = await child
          .run(input.prompt, {
            onEvent(event) {
              if (summary.add(event)) handle.toolUsed()
            },
            signal: context.signal,
          })
          .finally(() => child.close())
        status = 'completed'
        const stopped = result.stop === 'completed' ? '' : ` It stopped early (${result.stop}).`
        return toolOk(`${result.finalOutput.trim() || '(no answer)'}\n\n[${type.name} subagent: ${summary}.${stopped}]`)
      } catch (error) {
        return toolError(
          `the ${type.name} subagent failed: ${error instanceof Error ? error.message : String(error)}`,
          `[${type.name} subagent: ${summary} before it failed]`,
        )
      } finally {
        handle.end(status)
      }
    },
  }
}

/** The parent's child for `type`: never offered `task`, whatever its tools say (depth 1). */
function childSession(parent: AgentSession, type: SubagentType): AgentSession {
  const settings = {label: `task ${type.name}`, model: type.model, record: false, systemPrompt: type.systemPrompt}
  const scoped = parent.child({...settings, tools: type.tools})
  if (!scoped.tools.includes(TASK_TOOL)) return scoped
  return parent.child({...settings, tools: scoped.tools.filter((name) => name !== TASK_TOOL)})
}

/** What the child did, said in one clause: its calls by tool, and the files it changed. */
class CallSummary {
  private readonly calls = new Map<string, number>()
  private readonly files = new Set<string>()

  /** Counts a call's result; true when `event` was one. */
  add(event: AgentEvent): boolean {
    if (event.type !== 'tool_result') return false
    this.calls.set(event.call.name, (this.calls.get(event.call.name) ?? 0) + 1)
    const {details} = event.result as ToolResult
    if (details?.kind === 'edit') for (const file of details.files) this.files.add(file.path)
    return true
  }

  toString(): string {
    const total = [...this.calls.values()].reduce((sum, count) => sum + count, 0)
    if (total === 0) return 'no tool uses'
    const byTool = [...this.calls].map(([name, count]) => (count > 1 ? `${name} ×${count}` : name)).join(', ')
    const files = this.files.size > 0 ? `; changed ${[...this.files].join(', ')}` : ''
    return `${total} tool use${total === 1 ? '' : 's'} (${byTool})${files}`
  }
}
