// Tool permissions (HIP-301 §7): PermissionPolicy decides, PermissionGate asks and audits.
export type {AuditSink, PermissionAuditRecord} from './audit-record.js'
export {type PermissionCheck, PermissionGate, type PermissionGateOptions, type PermissionOutcome} from './gate.js'
export {globMatches} from './glob.js'
export {
  DEFAULT_PERMISSION_RULES,
  type DefaultPermissionRule,
  type MatchedRule,
  type PermissionEvaluation,
  PermissionPolicy,
  type PermissionPolicyOptions,
  SESSION_PERMISSION_MODES,
  type SessionPermissionMode,
  type ToolCallFacts,
} from './policy.js'
export {parseRulePattern, type RulePattern} from './rule-pattern.js'
export {commandWords, type ParsedShellCommand, parseShellCommand, type ShellHazard, type SimpleCommand} from './shell-command.js'
export {canonicalToolName, toolSubject, type ToolSubject} from './tool-subject.js'
