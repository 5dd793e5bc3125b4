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
  /** HIP-301 §1's `mcp__<server>__<tool>`; throws (a ProtocolError) for a server name it refuses. */
  normalizeMcpToolName(server: string, tool: string): string
  /** The `server` part (normalized) and the tool part of an `mcp__<server>__<tool>` name; undefined when it is not one. */
  parseMcpToolName(name: string): {server: string; tool: string} | undefined
  /** HIP-301 §15's exponential backoff with full jitter. */
  Backoff: new (options: {baseMs: number; maxMs: number}) => {nextDelay(): number; reset(): void}
  /** Replaces a file so readers see the old one or the new one, never a part (0o600 for secrets). */
  writeFileAtomic(path: string, data: string, options?: {mode?: number}): Promise<void>
  /**
   * Sets (`value`: JSON text, as `config set` takes it) or, with `value` undefined, removes a
   * setting in the settings file of `tier`, as `config set` / `config unset` do: validated,
   * atomic, keeping the file's other keys and a trusted project trusted.
   */
  editSetting(options: {cwd: string; tier: 'user' | 'project' | 'local'; key: string; value?: string}): Promise<{file: string; warnings: string[]; gitignore?: string}>
  /**
   * OAuth logins to resource servers (an MCP server's), stored under `key` (`mcp:<name>`) with
   * RFC 8707's `resource`: the browser or device login (registering a client, RFC 7591, when no
   * `clientId` is given), the stored access token and the resource it is for (renewed when
   * expired; undefined when there is none), and logout (revokes, then deletes). Absent from older hanzo-dev.
   */
  loginToResource?(login: ResourceLogin, options: {device: boolean; browser: boolean}): Promise<{account?: string; expires?: string; storedIn: string}>
  resourceAccessToken?(login: Pick<ResourceLogin, 'key' | 'settings' | 'env' | 'clientSecret'>): Promise<{accessToken: string; resource?: string} | undefined>
  logoutResource?(login: Pick<ResourceLogin, 'key' | 'settings' | 'env' | 'clientSecret'>): Promise<{removed: boolean; revocation?: string}>
}

/** Who to log in to, for {@link HostLibrary.loginToResource}. */
export interface ResourceLogin {
  key: string
  resource: string
  issuer: string
  clientId?: string
  clientSecret?: string
  scopes: string[]
  /** The merged settings (`credentials.store` picks the store). */
  settings: Record<string, unknown>
  env: Readonly<Record<string, string | undefined>>
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
