// Tool permissions (HIP-301 §7): PermissionPolicy decides, PermissionGate asks and audits.
export {type AllowAdvice, allowAdvice} from './allow-advice.js'
export {sessionApproval} from './approval-scope.js'
export type {AuditSink, PermissionAuditRecord} from './audit-record.js'
export {
  type AllowForm,
  analyzeCommandLine,
  type CommandAnalysis,
  type CommandHazard,
  type CommandPart,
  type DenyForms,
} from './command-analysis.js'
export {type CommandPrefix, commandPrefix} from './command-prefix.js'
export type {FileWrite} from './unwrapped.js'
export {type PermissionCheck, PermissionGate, type PermissionGateOptions, type PermissionOutcome} from './gate.js'
export {globCoversShape, globMatches, globOverlapsShape} from './glob.js'
export {
  DEFAULT_PERMISSION_RULES,
  type DefaultPermissionRule,
  type MatchedRule,
  type PermissionEvaluation,
  PermissionPolicy,
  type PermissionPolicyOptions,
  type PermissionShortfall,
  type ProtectedPermissionRule,
  SESSION_PERMISSION_MODES,
  type SessionPermissionMode,
  type ToolCallFacts,
} from './policy.js'
export {
  PROTECTED_PERMISSION_RULES,
  protectedPathRules,
  type ProtectedRule,
  WRITE_RULE_TOOLS,
} from './protected-paths.js'
export {parseRulePattern, type RulePattern} from './rule-pattern.js'
export {type SessionApproval, SessionApprovals} from './session-approvals.js'
export {
  commandWords,
  type ParsedShellCommand,
  parseShellCommand,
  type Redirection,
  type ShellHazard,
  type SimpleCommand,
} from './shell-command.js'
export {canonicalToolName, type ToolSubject} from './tool-subject.js'
