import {
  DEFAULT_HOOK_TIMEOUT_MS,
  HOOK_EVENTS,
  type HookConfig,
  type HookEvent,
  isRecord,
  MAX_HOOK_TIMEOUT_MS,
} from '@hanzo-dev/sdk'

export type ParsedHook = {index: number; label: string} & ({hook: HookConfig} | {problem: string})

export interface ParsedHooks {
  hooks: ParsedHook[]
  /** Set when `hooks` is not a list at all. */
  problem?: string
}

/**
 * Reads `settings.hooks` one entry at a time, so one bad hook is reported by its position
 * and the good ones still load.
 */
export function parseHooks(raw: unknown): ParsedHooks {
  if (raw === undefined || raw === null) return {hooks: []}
  if (!Array.isArray(raw))
    return {hooks: [], problem: `"hooks" must be a list of {event, command}, not ${describe(raw)}`}
  return {hooks: raw.map((entry, index) => parseHook(entry, index))}
}

function parseHook(entry: unknown, index: number): ParsedHook {
  const at = `hooks[${index}]`
  if (!isRecord(entry)) return {index, label: at, problem: `must be an object {event, command}, not ${describe(entry)}`}
  const tier = typeof entry.tier === 'string' ? entry.tier : undefined
  const event = entry.event
  const label = `${at}${typeof event === 'string' ? ` ${event}` : ''}${tier ? ` (${tier})` : ''}`
  const fail = (problem: string): ParsedHook => ({index, label, problem})

  if (!isHookEvent(event)) {
    return fail(`unknown event ${JSON.stringify(event)}; use one of ${HOOK_EVENTS.join(', ')}`)
  }

  if (typeof entry.command !== 'string' || entry.command.trim() === '')
    return fail('"command" must be a non-empty string')
  if (entry.tool_pattern !== undefined && (typeof entry.tool_pattern !== 'string' || entry.tool_pattern === '')) {
    return fail('"tool_pattern" must be a non-empty string (a glob over tool names, e.g. "fs_*")')
  }

  const timeout = entry.timeout_ms ?? DEFAULT_HOOK_TIMEOUT_MS
  if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1 || timeout > MAX_HOOK_TIMEOUT_MS) {
    return fail(
      `"timeout_ms" must be a whole number of milliseconds from 1 to ${MAX_HOOK_TIMEOUT_MS}, not ${JSON.stringify(timeout)}`,
    )
  }

  if (entry.fail_open !== undefined && typeof entry.fail_open !== 'boolean')
    return fail('"fail_open" must be true or false')

  const hook: HookConfig = {
    command: entry.command,
    event,
    fail_open: entry.fail_open === true,
    timeout_ms: timeout,
    tool_pattern: typeof entry.tool_pattern === 'string' ? entry.tool_pattern : '*',
  }
  if (tier) hook.tier = tier
  return {hook, index, label}
}

export function isHookEvent(value: unknown): value is HookEvent {
  return typeof value === 'string' && (HOOK_EVENTS as readonly string[]).includes(value)
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list'
  if (value === null) return 'null'
  return `a ${typeof value}`
}
