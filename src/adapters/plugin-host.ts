import type {Config, Interfaces} from '@oclif/core'
import {
  type Contribution,
  type DoctorReport,
  HOOK_CONTRIBUTE,
  HOOK_DOCTOR,
  type HostContext,
  PLUGIN_API_VERSION,
} from '@hanzo-dev/sdk'

/**
 * The only place that fires the `hanzo:*` hooks. A plugin that throws, hangs, or answers
 * in another contract version becomes a warning naming it; the command goes on without it.
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
  const listening = [...config.plugins.values()].filter((p) => (p.hooks[event] ?? []).length > 0)
  const answered = new Set<string>()
  const answers: PluginAnswer<T>[] = []
  const warnings: PluginWarning[] = []

  // oclif's own timeout covers a hook that never settles; this guard also covers a hook
  // module whose import never settles, which oclif's timeout does not reach.
  let guard: NodeJS.Timeout | undefined
  const expired = new Promise<undefined>((resolve) => {
    guard = setTimeout(() => resolve(undefined), timeoutMs + 500)
    guard.unref()
  })
  const result = await Promise.race([config.runHook(event, {host}, timeoutMs, true), expired])
  clearTimeout(guard)
  controller.abort()

  for (const {plugin, result: value} of result?.successes ?? []) {
    answered.add(plugin.name)
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
      warnings.push({message: `answered ${event} with something that is not a valid reply; ignored`, plugin: plugin.name})
    }
  }

  for (const {error, plugin} of result?.failures ?? []) {
    answered.add(plugin.name)
    const message = error instanceof Error ? error.message : String(error)
    warnings.push({
      message: /^Timed out after/.test(message)
        ? `did not answer ${event} within ${timeoutMs} ms; skipped`
        : `failed on ${event}: ${firstLine(message)}`,
      plugin: plugin.name,
    })
  }

  for (const plugin of listening) {
    if (!answered.has(plugin.name)) warnings.push({message: `did not answer ${event} within ${timeoutMs} ms; skipped`, plugin: plugin.name})
  }

  // Plugins answer concurrently; report them in the order they are loaded, so output is stable.
  const order = [...config.plugins.keys()]
  answers.sort((a, b) => order.indexOf(a.plugin) - order.indexOf(b.plugin))
  warnings.sort((a, b) => order.indexOf(a.plugin) - order.indexOf(b.plugin))
  return {answers, warnings}
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

function isDoctorReport(value: unknown): value is DoctorReport {
  return (
    isRecord(value) &&
    typeof value.apiVersion === 'number' &&
    Array.isArray(value.checks) &&
    value.checks.every((c) => isRecord(c) && typeof c.id === 'string' && typeof c.title === 'string' && typeof c.status === 'string')
  )
}

function isContribution(value: unknown): value is Contribution {
  return (
    isRecord(value) &&
    typeof value.apiVersion === 'number' &&
    (value.tools === undefined || Array.isArray(value.tools)) &&
    (value.middleware === undefined || Array.isArray(value.middleware)) &&
    (value.context === undefined || typeof value.context === 'string')
  )
}
