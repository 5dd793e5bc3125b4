import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'

import type {AgentSession, AgentSessionOptions} from './agent-session.js'
import type {HostContext} from './contract.js'
import type {SettingsWarning} from './settings.js'

/** What a plugin's own command gets from the running hanzo-dev: the same view hooks get. */
export interface HostLibrary {
  loadHostContext(options: {cwd: string; env: Readonly<Record<string, string | undefined>>}): Promise<{
    host: Omit<HostContext, 'apiVersion' | 'signal'>
    warnings: SettingsWarning[]
  }>
  /**
   * The agent session `hanzo-dev run` runs, with the same settings, tools, permission policy,
   * hooks, sandbox, audit log and saved sessions: pass the command's `this.config` as
   * `cliConfig` for the plugins' tools and hooks. A user error (bad settings, an unknown
   * session id, a model error) rejects with an error named UserError or ConfigError that has
   * `hint` and `exitCode`. Absent from a hanzo-dev older than the session API.
   */
  openAgentSession(options: AgentSessionOptions): Promise<AgentSession>
}

/**
 * A plugin's commands reach the core through the CLI that runs them (oclif's `config.root`),
 * not through a dependency of their own: a plugin installed next to any hanzo-dev version
 * uses that version's settings rules, and core plugins need no cycle back to the root package.
 */
export async function loadHostLibrary(config: {root: string}): Promise<HostLibrary> {
  const pjson = JSON.parse(await readFile(join(config.root, 'package.json'), 'utf8')) as {main?: string}
  return (await import(pathToFileURL(join(config.root, pjson.main ?? 'index.js')).href)) as HostLibrary
}
