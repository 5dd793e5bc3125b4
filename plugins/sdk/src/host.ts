import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'

import type {AgentEvent, AgentRunResult, AgentSession, AgentSessionOptions, RunUsage} from './agent-session.js'
import {type HostContext, PLUGIN_API_VERSION} from './contract.js'
import {UserError} from './errors.js'
import type {SettingsWarning} from './settings.js'

/**
 * The one door between a plugin and the running hanzo-dev: what a plugin's hooks get as
 * `HookOptions.hostApi` and its commands from {@link loadHost}. Implemented once, by the root
 * package (`hanzo-dev/host`), which checks its implementation against this interface: a change
 * of signature fails the type check of the host and of every plugin that uses it, not a run.
 */
export interface Host {
  /** The contract version it implements: {@link PLUGIN_API_VERSION}. */
  readonly apiVersion: number
  /** The running hanzo-dev's version. */
  readonly version: string
  /** The settings (credentials redacted) and the rest of a hook's view, for a command's `cwd`; the warnings not said yet. */
  loadHostContext(options: {
    cwd: string
    env: Readonly<Record<string, string | undefined>>
  }): Promise<{host: Omit<HostContext, 'apiVersion' | 'signal'>; warnings: SettingsWarning[]}>
  /**
   * The agent session `hanzo-dev run` runs, with the same settings, tools, permission policy,
   * hooks, sandbox, audit log and saved sessions: pass the command's `this.config` as
   * `cliConfig` for the plugins' tools and hooks. A user error (bad settings, an unknown session
   * id, a model error) rejects with a {@link UserError}.
   */
  openAgentSession(options: AgentSessionOptions): Promise<AgentSession>
  /**
   * Sets (`value`: JSON text, as `config set` takes it) or, with `value` undefined, removes a
   * setting in the settings file of `tier`, as `config set` / `config unset` do: validated,
   * atomic, keeping the file's other keys and a trusted project trusted.
   */
  editSetting(options: {
    cwd: string
    tier: 'user' | 'project' | 'local'
    key: string
    value?: string
  }): Promise<{file: string; warnings: string[]; gitignore?: string}>
  /**
   * OAuth logins to resource servers (an MCP server's), stored under `key` (`mcp:<name>`) with
   * RFC 8707's `resource`: the browser or device login (registering a client, RFC 7591, when no
   * `clientId` is given), the stored access token and the resource it is for (renewed when
   * expired; undefined when there is none), and logout (revokes, then deletes).
   */
  loginToResource(
    login: ResourceLogin,
    options: {device: boolean; browser: boolean},
  ): Promise<{account?: string; expires?: string; storedIn: string}>
  resourceAccessToken(login: StoredResourceLogin): Promise<{accessToken: string; resource?: string} | undefined>
  logoutResource(login: StoredResourceLogin): Promise<{removed: boolean; revocation?: string}>
  /** Whether the user trusts the project at `projectRoot` (`hanzo-dev trust`) as its settings are now. */
  isTrusted(projectRoot: string, env: Readonly<Record<string, string | undefined>>): Promise<boolean>
  /** Replaces a file so readers see the old one or the new one, never a part (0o600 for secrets). */
  writeFileAtomic(path: string, data: string, options?: {mode?: number}): Promise<void>
  /** HIP-301 §1's `mcp__<server>__<tool>`; throws for a server name it refuses. */
  normalizeMcpToolName(server: string, tool: string): string
  /** The `server` part (normalized) and the tool part of an `mcp__<server>__<tool>` name; undefined when it is not one. */
  parseMcpToolName(name: string): {server: string; tool: string} | undefined
  /** HIP-301 §15's exponential backoff with full jitter. */
  createBackoff(options: {baseMs: number; maxMs: number}): RetryBackoff
  /** How `hanzo-dev run` reports, for plugin commands that run agents or wait on the network. */
  readonly output: HostOutput
}

export interface HostOutput {
  /**
   * `hanzo-dev run`'s report of one run on these streams (docs/run-output.md): in `text`, the
   * answer on stdout, the tool activity and the "Thinking…" spinner on a terminal's stderr, in
   * the colours the terminal allows; `json` and `stream-json` as `run --output-format` prints them.
   */
  runReport(
    format: OutputFormat,
    streams: {stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream},
    summary: {sessionId: string; model: string},
    options?: {verbose?: boolean},
  ): Promise<RunReport>
  /** A spinner on `stream` with `text` ("Thinking…" by default), or undefined where none can be drawn (not a terminal). */
  spinner(stream: NodeJS.WriteStream, text?: string): Promise<Spinner | undefined>
  /** The task argument as `hanzo-dev run` reads it: `-` (or none, piped) is stdin; a missing task is a {@link UserError}. */
  readTask(argument: string, stdin: NodeJS.ReadStream): Promise<string>
}

export type OutputFormat = 'text' | 'json' | 'stream-json'

/** One run's report (see {@link HostOutput.runReport}). */
export interface RunReport {
  start(tools: readonly string[], cwd: string): void
  event(event: AgentEvent): void
  finish(result: AgentRunResult, usage: RunUsage): void
  fail(message: string): void
}

/** Starting a spinning spinner, or stopping a stopped one, writes nothing. */
export interface Spinner {
  start(): void
  stop(): void
}

export interface RetryBackoff {
  nextDelay(): number
  reset(): void
}

/** Who to log in to, for {@link Host.loginToResource}. */
export interface ResourceLogin {
  key: string
  resource: string
  issuer: string
  clientId?: string
  clientSecret?: string
  scopes: string[]
  /**
   * The server follows MCP's 2025-03-26 authorization (no RFC 9728 metadata): `issuer` is its
   * origin, and an origin without RFC 8414 metadata has the spec's default endpoints
   * `/authorize`, `/token` and `/register`.
   */
  defaultEndpoints?: boolean
  /** The merged settings (`credentials.store` picks the store). */
  settings: Record<string, unknown>
  env: Readonly<Record<string, string | undefined>>
}

export type StoredResourceLogin = Pick<ResourceLogin, 'key' | 'settings' | 'env' | 'clientSecret'>

const loaded = new Map<string, Promise<Host>>()

/**
 * The {@link Host} of the hanzo-dev running a plugin's command (oclif's `config.root`): a plugin
 * installed next to any hanzo-dev uses that version's settings rules and sessions, and needs no
 * dependency on the root package. One built for another contract version is refused with what
 * to update, as its hook answers are.
 */
export function loadHost(config: {root: string}): Promise<Host> {
  let host = loaded.get(config.root)
  if (!host) {
    host = importHost(config.root)
    loaded.set(config.root, host)
  }

  return host
}

async function importHost(root: string): Promise<Host> {
  const pjson = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    version?: string
    exports?: Record<string, {import?: string} | string>
  }
  const entry = pjson.exports?.['./host']
  const path = typeof entry === 'string' ? entry : entry?.import
  if (!path)
    throw new UserError(
      `the hanzo-dev at ${root} (${pjson.version ?? 'unknown version'}) has no plugin host; update hanzo-dev`,
    )
  const {host} = (await import(pathToFileURL(join(root, path)).href)) as {host: Host}
  if (host?.apiVersion !== PLUGIN_API_VERSION) {
    throw new UserError(
      `this plugin needs hanzo-dev's plugin contract ${PLUGIN_API_VERSION}, and the hanzo-dev at ${root} has ${String(host?.apiVersion)}`,
      {
        hint: 'update the plugin or hanzo-dev so that they match',
      },
    )
  }

  return host
}
