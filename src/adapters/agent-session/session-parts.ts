import type {Contribution, CustomPrompts, Middleware} from '@hanzo-dev/sdk'

import type {SystemPromptParts} from '../../core/agent/system-prompt.js'
import type {Message} from '../../core/agent/types.js'
import type {HanzoConfig} from '../../core/config/types.js'
import type {PermissionGate, PermissionPolicy} from '../../core/permissions/index.js'
import type {ToolRegistry} from '../../core/tools/registry.js'
import type {CheckpointRecorder} from '../checkpoints/capture.js'
import type {PluginAnswer} from '../plugin-host.js'
import type {BackgroundProcesses} from '../tools/background-processes.js'
import type {Subagents} from '../tools/subagents.js'
import type {Skill} from '../skills.js'
import type {CliTracing} from '../tracing-exporter.js'
import type {RunInterrupts} from './interrupts.js'
import type {SessionModel} from './model-client.js'
import type {SessionRecording} from './recording.js'

/** What a session and all its children share, put together once by openAgentSession. */
export interface SessionParts {
  /** Everything of the system prompt but the tools, which are each session's own. */
  prompt: Omit<SystemPromptParts, 'tools'>
  /** What the `skill` tool loads, where each came from. */
  skills: readonly Skill[]
  /** The commands its exec calls run in the background, the children's included: ended on close. */
  background: BackgroundProcesses
  /** Records what the session's tools change, for `sessions rewind`; released on close. */
  checkpoints?: CheckpointRecorder
  config: HanzoConfig
  contributions: ReadonlyArray<PluginAnswer<Contribution>>
  cwd: string
  env: Readonly<Record<string, string | undefined>>
  /** Canonical: what no tool reads or writes (ToolContext.hiddenPaths). */
  hiddenPaths: readonly string[]
  interrupts: RunInterrupts
  middleware: readonly Middleware[]
  /**
   * The client is used only through the recording (a run's recorder, or `recording.metered`):
   * every request the session or a child makes counts in its usage, whoever asked for it.
   */
  model: SessionModel
  permissions: PermissionGate
  /** The session's rules in the `prompt` mode: what `verdict` reports. */
  verdictPolicy: PermissionPolicy
  recording: SessionRecording
  /** With `maxBudgetUsd`: whether the session has spent it (asked before each model request). */
  overBudget?: () => boolean
  registry: ToolRegistry
  /** The children its `task` calls start, the children's own included. */
  subagents: Subagents
  warn(message: string): void
  /** The command files and agent files it trusts, read when asked (AgentSession.customPrompts). */
  customPrompts(): Promise<CustomPrompts>
}

/** What one session (the root, or a child) has of its own. */
export interface NodeSettings {
  history: Message[]
  maxTurns: number
  model: string
  systemPrompt?: string
  tools: string[]
  label?: string
  /** `false`: runs are not written to the saved session (ChildSessionOptions.record). */
  record?: boolean
  /** What its requests count as (ChildSessionOptions.kind). */
  kind?: 'sampling'
  /** ChildSessionOptions.maxOutputTokens. */
  maxOutputTokens?: number
}

/** The root's lifetime, which its children share: once closed, none of them runs. */
export interface Lifetime {
  started: boolean
  closed: boolean
  /** Configured on the first run (null: tracing is off), shut down on close. */
  tracing?: CliTracing | null
}
