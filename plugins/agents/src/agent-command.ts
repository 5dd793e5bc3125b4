import type {Host, OutputFormat} from '@hanzo-dev/sdk'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {PERMISSION_MODES, type PermissionMode, type ToolScope} from '@hanzo-dev/sdk/agent-files'
import type {AgentSessionLike} from './agent-session.js'
import {agentHost} from './host.js'
import {StageOutput} from './stage-output.js'

/** The flags every agent command shares (`run`'s, where they mean the same). */
export const agentFlags = {
  model: Flags.string({description: 'Model id (default: the `model` setting).'}),
  'base-url': Flags.string({description: 'An OpenAI-compatible /v1 base URL (Ollama, vLLM, LM Studio, ...).'}),
  'max-turns': Flags.integer({
    description: 'The most model requests each stage may make (default: max_turns, else 25).',
    min: 1,
  }),
  'output-format': Flags.option({
    default: 'text',
    description: 'How to report: text, json (one object at the end), stream-json (one event per line).',
    options: ['text', 'json', 'stream-json'] as const,
  })(),
  'permission-mode': Flags.option({
    description:
      'prompt: ask (deny off a terminal); allow-reads: read-only tools run; deny: never ask; allow-all: run everything not denied. Default prompt.',
    options: PERMISSION_MODES,
  })(),
  verbose: Flags.boolean({description: 'Show more of each tool result on stderr (text output).'}),
  'fake-model': Flags.string({description: 'Replay a scripted model (tests, demos).', hidden: true}),
}

export interface AgentFlags {
  model?: string
  'base-url'?: string
  'max-turns'?: number
  'output-format': string
  'permission-mode'?: string
  verbose: boolean
  'fake-model'?: string
}

export interface OpenedAgent {
  host: Host
  session: AgentSessionLike
  output: StageOutput
  task: string
}

/**
 * What each agent command does before and after its stages: read the task (`-` is stdin), open
 * one session with the user's policy, render with `run`'s output, close. The stages themselves
 * are functions of the session (stages.ts), for the interactive session's `/plan` ... `/auto` too.
 */
export async function openAgent(
  command: Command,
  taskArgument: string,
  flags: AgentFlags,
  options: {
    tools: ToolScope
    systemPrompt?: string
    model?: string
    permissionMode?: PermissionMode
    headings?: boolean
  },
): Promise<OpenedAgent> {
  const host = await agentHost(command)
  const task = await host.output.readTask(taskArgument, process.stdin)
  if (!task.trim()) command.error('The task is empty (pass it as an argument, or with - on stdin)', {exit: 2})
  const session = await host.openAgentSession({
    baseURL: flags['base-url'],
    cliConfig: command.config,
    cwd: process.cwd(),
    env: process.env,
    fakeModel: flags['fake-model'],
    maxTurns: flags['max-turns'],
    model: flags.model ?? options.model,
    permissionMode: (flags['permission-mode'] as PermissionMode | undefined) ?? options.permissionMode ?? 'prompt',
    systemPrompt: options.systemPrompt,
    tools: options.tools,
    warn: (message) => command.warn(message),
  })
  const output = new StageOutput(
    host,
    session.id,
    flags['output-format'] as OutputFormat,
    {stderr: process.stderr, stdout: process.stdout},
    {headings: options.headings ?? false, verbose: flags.verbose},
  )
  return {host, output, session, task}
}

/** `run`'s exit codes: 0 done, 1 stopped early (max turns, an error), 130 cancelled. */
export function exitCode(stop: string): number {
  if (stop === 'completed') return 0
  return stop === 'cancelled' ? 130 : 1
}
