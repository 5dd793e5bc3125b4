import type {Config, Interfaces} from '@oclif/core'
import {
  type Contribution,
  type DoctorReport,
  type DoctorStatus,
  HOOK_CONTRIBUTE,
  HOOK_DOCTOR,
  type HostContext,
  type Middleware,
  PLUGIN_API_VERSION,
  type SlashCommandDefinition,
  type ToolDefinition,
} from '@hanzo-dev/sdk'

import {host as hostApi} from '../host.js'

/**
 * The only place that fires the `hanzo:*` hooks. A plugin that throws, hangs, or answers
 * in another contract version or in a malformed shape becomes a warning naming it; the
 * command goes on without it.
 */

export type PluginType = 'core' | 'dev' | 'link' | 'user'

export interface PluginAnswer<T> {
  plugin: string
  /** Tools from non-core plugins always ask permission. */
  pluginType: PluginType
  value: T
}

export interface PluginWarning {
  plugin: string
  message: string
}

export interface HostResults<T> {
  answers: PluginAnswer<T>[]
  warnings: PluginWarning[]
}

export const DEFAULT_HOOK_TIMEOUT_MS = 10_000

/** How long a plugin may take to answer a hook; `HANZO_PLUGIN_TIMEOUT_MS` overrides it. */
export function hookTimeoutMs(env: Readonly<Record<string, string | undefined>>): number {
  const value = Number(env.HANZO_PLUGIN_TIMEOUT_MS)
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_HOOK_TIMEOUT_MS
}

type HostInput = Omit<HostContext, 'apiVersion' | 'signal'>

export function collectDoctorReports(config: Config, host: HostInput, timeoutMs = DEFAULT_HOOK_TIMEOUT_MS) {
  return fire<DoctorReport>(config, HOOK_DOCTOR, host, timeoutMs, isDoctorReport)
}

export function collectContributions(config: Config, host: HostInput, timeoutMs = DEFAULT_HOOK_TIMEOUT_MS) {
  return fire<Contribution>(config, HOOK_CONTRIBUTE, host, timeoutMs, isContribution)
}

async function fire<T extends {apiVersion: number}>(
  config: Config,
  event: string,
  input: HostInput,
  timeoutMs: number,
  isValid: (value: unknown) => value is T,
): Promise<HostResults<T>> {
  const controller = new AbortController()
  const host: HostContext = {...input, apiVersion: PLUGIN_API_VERSION, signal: controller.signal}
  // Core plugins in the order package.json declares them, then the user's by name: plugins
  // load concurrently, so the load order would change from run to run.
  const declared = config.pjson.oclif.plugins ?? []
  const rank = (p: Interfaces.Plugin) => (declared.includes(p.name) ? declared.indexOf(p.name) : declared.length)
  const listening = [...config.plugins.values()]
    .filter((p) => (p.hooks[event] ?? []).length > 0)
    .sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name))
  const replies = await Promise.all(listening.map((plugin) => ask(config, plugin, event, host, timeoutMs)))
  controller.abort()

  const answers: PluginAnswer<T>[] = []
  const warnings: PluginWarning[] = []
  const late = `did not answer ${event} within ${timeoutMs} ms; skipped`
  for (const [i, reply] of replies.entries()) {
    const plugin = listening[i]
    if (!reply) {
      warnings.push({message: late, plugin: plugin.name})
      continue
    }

    for (const value of reply.successes) {
      if (value === undefined) continue
      const version = isRecord(value) ? value.apiVersion : undefined
      if (typeof version === 'number' && version !== PLUGIN_API_VERSION) {
        warnings.push({
          message: `speaks plugin API version ${version}, hanzo-dev speaks ${PLUGIN_API_VERSION}; ignored (update the plugin)`,
          plugin: plugin.name,
        })
      } else if (isValid(value)) {
        answers.push({plugin: plugin.name, pluginType: typeOf(plugin), value})
      } else {
        warnings.push({
          message: `answered ${event} with something that is not a valid reply; ignored`,
          plugin: plugin.name,
        })
      }
    }

    for (const error of reply.failures) {
      const message = error instanceof Error ? error.message : String(error)
      warnings.push({
        message: /^Timed out after/.test(message) ? late : `failed on ${event}: ${firstLine(message)}`,
        plugin: plugin.name,
      })
    }
  }

  return {answers, warnings}
}

/**
 * Asks one plugin. oclif's runHook asks every plugin in `config.plugins`, so it runs on a view
 * of the config that holds only this one: a plugin whose hook module never finishes importing
 * (oclif's timeout covers only the hook call) then costs its own answer, not everyone's.
 * The guard timer is deliberately not unref'd: oclif's is, and a hook that never settles
 * would otherwise let the event loop drain and end the process before either timer fires.
 */
async function ask(
  config: Config,
  plugin: Interfaces.Plugin,
  event: string,
  host: HostContext,
  timeoutMs: number,
): Promise<{failures: unknown[]; successes: unknown[]} | undefined> {
  const view: Config = Object.create(config, {plugins: {value: new Map([[plugin.name, plugin]])}})
  let guard: NodeJS.Timeout | undefined
  const expired = new Promise<undefined>((resolve) => {
    guard = setTimeout(() => resolve(undefined), timeoutMs + 500)
  })
  try {
    const result = await Promise.race([config.runHook.call(view, event, {host, hostApi}, timeoutMs, true), expired])
    return result && {failures: result.failures.map((f) => f.error), successes: result.successes.map((s) => s.result)}
  } finally {
    clearTimeout(guard)
  }
}

function typeOf(plugin: Interfaces.Plugin): PluginType {
  return (['core', 'dev', 'link', 'user'] as const).find((t) => t === plugin.type) ?? 'user'
}

function firstLine(message: string): string {
  return message.split('\n', 1)[0].slice(0, 300)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

const STATUSES: ReadonlySet<unknown> = new Set<DoctorStatus>(['ok', 'warn', 'fail', 'skip'])

function isDoctorReport(value: unknown): value is DoctorReport {
  return (
    isRecord(value) &&
    typeof value.apiVersion === 'number' &&
    Array.isArray(value.checks) &&
    value.checks.every(
      (c) =>
        isRecord(c) &&
        typeof c.id === 'string' &&
        typeof c.title === 'string' &&
        STATUSES.has(c.status) &&
        optional(c.detail, 'string') &&
        optional(c.hint, 'string'),
    )
  )
}

// Names and collisions are the tool registry's business; here only the shape is checked, so
// that a malformed tool is refused with its plugin's name instead of failing mid-turn.
/** Whether a plugin's value is a tool definition (the answer's tools, and those `watchTools` sends later). */
export function isTool(value: unknown): value is ToolDefinition {
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    typeof value.description === 'string' &&
    isRecord(value.inputSchema) &&
    typeof value.mutating === 'boolean' &&
    typeof value.execute === 'function' &&
    // What a tool says of itself is optional; a kind the host does not know yet counts as `other`.
    optional(value.kind, 'string') &&
    ['subject', 'describe', 'locations', 'preview'].every((key) => optional(value[key], 'function'))
  )
}

function isMiddleware(value: unknown): value is Middleware {
  return isRecord(value) && typeof value.name === 'string' && typeof value.wrap === 'function'
}

export function isSlashCommand(value: unknown): value is SlashCommandDefinition {
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    typeof value.description === 'string' &&
    optional(value.argsHint, 'string') &&
    typeof value.run === 'function'
  )
}

function isContribution(value: unknown): value is Contribution {
  return (
    isRecord(value) &&
    typeof value.apiVersion === 'number' &&
    (value.tools === undefined || (Array.isArray(value.tools) && value.tools.every(isTool))) &&
    (value.middleware === undefined || (Array.isArray(value.middleware) && value.middleware.every(isMiddleware))) &&
    (value.slashCommands === undefined ||
      (Array.isArray(value.slashCommands) && value.slashCommands.every(isSlashCommand))) &&
    optional(value.context, 'string') &&
    (value.skills === undefined || (Array.isArray(value.skills) && value.skills.every((s) => typeof s === 'string'))) &&
    (optional(value.status, 'string') || typeof value.status === 'function') &&
    (value.notices === undefined ||
      (Array.isArray(value.notices) && value.notices.every((n) => typeof n === 'string'))) &&
    optional(value.onSessionEvent, 'function') &&
    optional(value.watchTools, 'function') &&
    optional(value.ready, 'function') &&
    optional(value.watchSlashCommands, 'function') &&
    optional(value.completeMention, 'function') &&
    optional(value.pendingContext, 'function') &&
    optional(value.watchNotices, 'function') &&
    optional(value.dispose, 'function')
  )
}

function optional(value: unknown, type: 'string' | 'function'): boolean {
  return value === undefined || typeof value === type
}
