import type {ToolResult} from '@hanzo-dev/sdk'

import type {PermissionMode, ToolScope} from './agent-file.js'

/**
 * The part of the core's session API (`openAgentSession`, reached through the host library)
 * the agent stages use. Declared here structurally so the stages take any session: the CLI's,
 * and the interactive session's for `/plan`, `/solve`, `/code`, `/auto`.
 */
export interface StageEvent {
  type: string
  text?: string
  call?: {id: string; name: string; input: Record<string, unknown>}
  result?: ToolResult
}

export interface StageRunResult {
  finalOutput: string
  /** `completed`, or why the run ended early (`max_turns`, `cancelled`, ...). */
  stop: string
  turns: number
}

export interface AgentSessionLike {
  id: string
  model: string
  cwd: string
  tools: readonly string[]
  run(prompt: string, options?: {onEvent?(event: StageEvent): void; label?: string}): Promise<StageRunResult>
  child(options: {tools?: ToolScope; systemPrompt?: string; maxTurns?: number; model?: string; label?: string}): AgentSessionLike
  close(): Promise<void>
}

export interface OpenSessionOptions {
  cwd: string
  env: Readonly<Record<string, string | undefined>>
  cliConfig?: unknown
  model?: string
  baseURL?: string
  permissionMode: PermissionMode
  tools?: ToolScope
  systemPrompt?: string
  maxTurns?: number
  session?: {resume?: string; continue?: boolean; record?: boolean}
  signal?: AbortSignal
  fakeModel?: string
  warn?(message: string): void
}
