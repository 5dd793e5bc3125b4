import {homedir} from 'node:os'
import {type HostLibrary, loadHostLibrary} from '@hanzo-dev/sdk'
import type {Command} from '@oclif/core/command'

import type {AgentSessionLike, OpenSessionOptions, StageEvent, StageRunResult} from './agent-session.js'

/** How `hanzo-dev run` reports (the root's src/cli/run-output.ts), reused so every agent command prints alike. */
export interface RunOutputLike {
  start(tools: readonly string[], cwd: string): void
  event(event: StageEvent): void
  finish(result: StageRunResult, usage: unknown): void
  fail(message: string): void
}

type Writable = NodeJS.WritableStream

/** What the agent commands use of the running hanzo-dev, beyond the settings every plugin command loads. */
export interface AgentHost extends HostLibrary {
  openAgentSession(options: OpenSessionOptions): Promise<AgentSessionLike>
  readTask(argument: string, stdin: NodeJS.ReadStream): Promise<string>
  RunOutput: new (
    format: 'text' | 'json' | 'stream-json',
    streams: {stdout: Writable; stderr: Writable; style: unknown; spinner?: unknown},
    summary: {sessionId: string; model: string},
    options?: {verbose?: boolean},
  ) => RunOutputLike
  makeStyle(stream: NodeJS.WriteStream): unknown
  terminalSpinner(stream: NodeJS.WriteStream, style: unknown): Promise<unknown>
  writeFileAtomic(path: string, data: string): Promise<void>
  FileTrustStore: {of(env: Readonly<Record<string, string | undefined>>, home: string): {lookup(root: string): Promise<{trusted?: unknown}>}}
}

const NEEDED = ['openAgentSession', 'readTask', 'RunOutput', 'makeStyle', 'terminalSpinner', 'writeFileAtomic', 'FileTrustStore'] as const

/** The host library with the session API; a hanzo-dev too old to have it is a clear error, not a crash. */
export async function loadAgentHost(command: Pick<Command, 'config' | 'error'>, needed: ReadonlyArray<(typeof NEEDED)[number]> = NEEDED): Promise<AgentHost> {
  const library = (await loadHostLibrary(command.config)) as Partial<AgentHost>
  const missing = needed.filter((name) => typeof library[name] !== 'function')
  if (missing.length > 0) {
    command.error(`the hanzo-dev at ${command.config.root} has no agent session API (${missing.join(', ')} missing); update hanzo-dev`, {exit: 1})
  }

  return library as AgentHost
}

/**
 * Project agent files load only once the user trusts the project, as its hooks and MCP servers
 * do: a cloned repository must not pick the agent's instructions, tools or permission mode. Trusted
 * means a trust record exists for the project and nothing its settings set is left out for want of it.
 */
export async function projectTrusted(host: AgentHost, projectRoot: string, untrusted: unknown, env: Readonly<Record<string, string | undefined>>): Promise<boolean> {
  if (untrusted !== undefined) return false
  return (await host.FileTrustStore.of(env, homedir()).lookup(projectRoot)).trusted !== undefined
}
