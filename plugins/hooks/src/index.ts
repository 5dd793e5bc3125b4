export {type CommandWord, firstCommandWord, type ResolvedCommand, resolveHookCommand} from './command-word.js'
export {hooksChecks} from './doctor-checks.js'
export {
  DEFAULT_HOOK_TIMEOUT_MS,
  HOOK_EVENTS,
  type HookConfig,
  type HookEvent,
  MAX_HOOK_TIMEOUT_MS,
  type ParsedHook,
  type ParsedHooks,
  parseHooks,
} from './hook-config.js'
export {default as doctor} from './hooks/doctor.js'
