import type {ToolScope} from './agent-session.js'
import type {Host} from './host.js'
import type {SlashCommandDefinition} from './slash-commands.js'
import type {Middleware, ToolDefinition} from './tools.js'

/**
 * The contract's version. A plugin states the version it was written against in every
 * answer; the host ignores (with a warning naming the plugin) answers from another version.
 */
export const PLUGIN_API_VERSION = 1

/** The hook events the host fires. Only `src/adapters/plugin-host.ts` fires them. */
export const HOOK_CONTRIBUTE = 'hanzo:contribute'
export const HOOK_DOCTOR = 'hanzo:doctor'

/**
 * What the host tells a plugin. `settings` is the merged configuration with the model
 * credentials (`api_key`, `providers.*.api_key` / `oauth`, `oauth_credentials`) replaced by
 * "[redacted]": plugins learn that a key is set, never its value. Hook commands and MCP server
 * entries arrive whole: the plugins that own them must run them.
 */
export interface HostContext {
  apiVersion: number
  /** The directory the command runs in. */
  cwd: string
  /** The project root: the nearest directory with `.hanzo/` or `.git/`, else `cwd`. */
  projectRoot: string
  /** Merged settings (user < project < local < env), model credentials redacted. */
  settings: Readonly<Record<string, unknown>>
  /**
   * Which tier set each merged setting, by dotted key (`sandbox.allowed_paths`; a list is one
   * key): what a plugin needs to hold a repository's own settings to stricter rules.
   */
  tiers?: Readonly<Record<string, 'user' | 'project' | 'local' | 'env'>>
  /** Where hanzo-dev keeps user settings and credentials (`$XDG_CONFIG_HOME/hanzo`). */
  configDir: string
  /** Where hanzo-dev keeps sessions, logs and installed plugins. */
  dataDir: string
  env: Readonly<Record<string, string | undefined>>
  /** What the project's settings set but `settings` leaves out for want of trust; absent when nothing is. */
  untrusted?: UntrustedSettings
  /**
   * For `hanzo:contribute`: the tools the session will offer. A plugin none of whose tools it
   * would offer need not start anything for them (`none`: a side question such as a commit
   * message). Absent for the other hooks.
   */
  tools?: ToolScope
  /** For `hanzo:contribute`: `false` when the session must not start MCP servers (AgentSessionOptions.mcpServers). */
  mcpServers?: false
  /** Aborted when the host stops waiting; stop work and release resources. */
  signal: AbortSignal
  /**
   * For `hanzo:contribute`: puts a server's question to the session's user (MCP elicitation) and
   * resolves with the answer. Absent where no one can answer (a headless run): a plugin then
   * declines, saying so on stderr.
   */
  elicit?: (request: ElicitationRequest) => Promise<ElicitationAnswer>
  /**
   * For `hanzo:contribute`: asks the session's model on a server's behalf (MCP sampling), once the
   * rule `mcp_sampling(<server>)` or the user allows it; its tokens count in the session's usage.
   * Rejects with an error saying why when refused. Absent in a session without a model.
   */
  sample?: (request: SamplingRequest) => Promise<SamplingAnswer>
}

/**
 * A server's question to the user: a form typed by `requestedSchema`, or a URL to open. `signal`
 * aborts when the server withdraws it (`notifications/cancelled`): the question should close,
 * as its answer goes nowhere.
 */
export type ElicitationRequest = {server: string; message: string; signal?: AbortSignal} & (
  {mode: 'form'; requestedSchema: ElicitationSchema} | {mode: 'url'; url: string}
)

/** MCP's restricted JSON Schema for a form: one level of string, number, integer, boolean and enum fields. */
export interface ElicitationSchema {
  type: 'object'
  properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>
  required?: readonly string[]
}

export type ElicitationValue = string | number | boolean | string[]

/** `accept` with the form's values (none for a URL), `decline` (the user said no), `cancel` (dismissed: Esc). */
export interface ElicitationAnswer {
  action: 'accept' | 'decline' | 'cancel'
  content?: Record<string, ElicitationValue>
}

/** A server's conversation for the model: text turns, the last one the user's. */
export interface SamplingRequest {
  server: string
  messages: readonly {role: 'user' | 'assistant'; text: string}[]
  systemPrompt?: string
  maxTokens: number
  /** Aborts when the server withdraws the request (`notifications/cancelled`). */
  signal?: AbortSignal
}

export interface SamplingAnswer {
  text: string
  model: string
  stopReason: 'endTurn' | 'maxTokens'
}

/**
 * The hooks, MCP servers and agent files of an untrusted project (`.hanzo/settings.json`, `.hanzo/settings.local.json`),
 * shaped like `settings.hooks` and `settings.mcp_servers` (each tagged with its `tier`), with what
 * may be a secret redacted as `hanzo-dev trust` shows it. A listing shows them as not trusted
 * rather than not there; nothing may run or connect to them.
 */
export interface UntrustedSettings {
  /** `changed`: the user trusted this project's settings once, and they changed since. */
  status: 'untrusted' | 'changed'
  hooks: readonly unknown[]
  mcp_servers: Readonly<Record<string, unknown>>
  /** The project's agent files (`.hanzo/agents/*.md`, by name) that must not load. */
  agents?: readonly string[]
}

/** Why what {@link UntrustedSettings} holds does not apply, and what to run: the words every listing shares. */
export function untrustedNote(status: UntrustedSettings['status']): {reason: string; hint: string} {
  return status === 'changed'
    ? {
        hint: 'run hanzo-dev trust to review and trust them again',
        reason: "this project's settings changed since you trusted them",
      }
    : {hint: 'run hanzo-dev trust to review and trust them', reason: "this project's settings are not trusted"}
}

/** The line a listing ends with when it shows untrusted entries. */
export function untrustedLine(status: UntrustedSettings['status']): string {
  const {hint, reason} = untrustedNote(status)
  return `not trusted: ${reason} (${hint})`
}

export interface HookOptions {
  host: HostContext
  /** The running hanzo-dev's services (sessions, settings edits, output): the same a plugin command gets from `loadHost`. */
  hostApi: Host
}

/** The moments of a session besides tool calls that plugins may act on (HIP-301 §9). */
export type SessionEvent = 'session_start' | 'user_prompt_submit' | 'stop' | 'pre_compact'

export interface SessionEventInput {
  event: SessionEvent
  sessionId: string
  cwd: string
  /** The user's prompt, for `user_prompt_submit`. */
  prompt?: string
}

/**
 * What a plugin says about a session event. `deny` on `user_prompt_submit` stops the prompt
 * before the model sees it (the reason is shown to the user); on the other events the host
 * reports it and goes on.
 */
export type SessionEventVerdict = {decision: 'allow'} | {decision: 'deny'; reason: string}

/** The answer to `hanzo:contribute`. */
export interface Contribution {
  apiVersion: number
  tools?: ToolDefinition[]
  middleware?: Middleware[]
  /**
   * For tools that arrive or change after the answer (an MCP server that starts late, or says
   * its tools changed): the host calls it once with `update`, and the plugin calls `update` with
   * its whole current list each time it changes. The model sees the new list from its next request.
   */
  watchTools?: (update: (tools: ToolDefinition[]) => void) => void
  /**
   * Resolves once what `watchTools` is still waiting for has arrived or failed (MCP servers still
   * starting), within the plugin's own time limits. A one-shot run waits for it before its first
   * request, where a tool arriving late would miss the only request that mattered.
   */
  ready?: () => Promise<void>
  /** Text the loop adds to the system prompt. */
  context?: string
  /**
   * Skills the plugin ships: absolute paths of skill folders, each with its `SKILL.md` (front
   * matter `name` and `description`). The model sees each name and description, and loads the
   * rest with the `skill` tool when it needs it.
   */
  skills?: string[]
  /** Commands for the interactive prompt (`/commit`); a name a built-in or an earlier plugin has is refused with a warning. */
  slashCommands?: SlashCommandDefinition[]
  /**
   * For commands that arrive or change after the answer (an MCP server's prompts, once it has
   * started): the host calls it once with `update`, and the plugin calls `update` with its whole
   * current list, which replaces `slashCommands`, each time it changes.
   */
  watchSlashCommands?: (update: (commands: SlashCommandDefinition[]) => void) => void
  /**
   * A few words the interactive session's status line shows (`sandbox: workspace`); a function
   * when they change during the session (`mcp: 2/3`), called each time the line is drawn, so it
   * must be quick. Undefined or empty: nothing shown.
   */
  status?: string | (() => string | undefined)
  /** Lines the host prints once, on stderr, before the session starts (what the user must know about it). */
  notices?: string[]
  /** Called by the host at each session event, in the order plugins answered. */
  onSessionEvent?: (input: SessionEventInput) => Promise<SessionEventVerdict>
  /**
   * `@` in the interactive prompt: what a mention starting with `prefix` (what follows the `@`)
   * may become besides the project's files (an MCP server's `server:`, then its resources'
   * `server:uri`). Absent: files only.
   */
  completeMention?: (prefix: string, signal: AbortSignal) => Promise<MentionCandidate[]>
  /**
   * Context that arrived since the model's last request (a mentioned MCP resource that changed):
   * the host calls it before each prompt runs and puts what it returns ahead of the prompt; the
   * plugin then forgets it. Undefined: nothing new.
   */
  pendingContext?: () => string | undefined
  /**
   * For one-line notices during the session (`resource everything:demo://resource/1 changed`):
   * the host calls it once with `notify` and shows each line, through the printer.
   */
  watchNotices?: (notify: (line: string) => void) => void
  /** Called once when the command that asked for the contribution ends. */
  dispose?: () => Promise<void> | void
}

/** What an `@` mention may become (`value`, without the `@`), with a few words to show beside it. */
export interface MentionCandidate {
  value: string
  label?: string
}

export type DoctorStatus = 'ok' | 'warn' | 'fail' | 'skip'

export interface DoctorCheck {
  /** Stable identifier, unique within the plugin: `git.found`. */
  id: string
  title: string
  status: DoctorStatus
  /** What was found (a version, a path, a count). */
  detail?: string
  /** What to try when the status is not ok. */
  hint?: string
}

/** The answer to `hanzo:doctor`. */
export interface DoctorReport {
  apiVersion: number
  checks: DoctorCheck[]
}

export type ContributeHook = (options: HookOptions) => Promise<Contribution | undefined>
export type DoctorHook = (options: HookOptions) => Promise<DoctorReport>

/** Identity helpers that give a plugin's hook file its types without importing oclif. */
export function defineContributeHook(hook: ContributeHook): ContributeHook {
  return hook
}

export function defineDoctorHook(hook: DoctorHook): DoctorHook {
  return hook
}

export function doctorReport(checks: DoctorCheck[]): DoctorReport {
  return {apiVersion: PLUGIN_API_VERSION, checks}
}
