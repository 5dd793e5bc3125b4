export {type CommandWord, firstCommandWord, type ResolvedCommand, resolveHookCommand} from './command-word.js'
export {hooksChecks} from './doctor-checks.js'
export {type ParsedHook, type ParsedHooks, parseHooks} from './hook-config.js'
export {
  type HookContext,
  type HookDecision,
  type HookOutcome,
  type HookPayload,
  HookRunner,
  type HookRunnerOptions,
  type RunnerHook,
} from './hook-runner.js'
export {matchesToolPattern} from './tool-pattern.js'
// The settings schema checks hooks against the same constants (they live in the sdk for that).
export {
  DEFAULT_HOOK_TIMEOUT_MS,
  HOOK_EVENTS,
  type HookConfig,
  type HookEvent,
  MAX_HOOK_TIMEOUT_MS,
} from '@hanzo-dev/sdk'
export {default as contribute} from './hooks/contribute.js'
export {default as doctor} from './hooks/doctor.js'
