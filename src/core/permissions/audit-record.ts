import type {PermissionMode} from '../config/types.js'

/**
 * One permission decision, as the audit log keeps it (HIP-301 §7 "Audit trail"), one JSON line
 * each. snake_case like the settings files. It never holds the tool's input: a command line or
 * a file's content may contain secrets, and the log outlives the session.
 */
export interface PermissionAuditRecord {
  /** ISO 8601, UTC. */
  timestamp: string
  /** As the model called it. */
  tool_name: string
  /** What the policy said, session mode applied: `prompt` means the user (or the prompter) decided. */
  mode: PermissionMode
  decision: 'allow' | 'deny'
  /** The matched rule's pattern; null when none matched. */
  rule_matched: string | null
  session_id: string
  reason: string | null
}

/**
 * Where audit records go. `append` resolves once the record is kept, and rejects (with a message
 * for the user) when it cannot be: the gate then denies the call, since a decision that is not
 * recorded must not let a tool run.
 */
export interface AuditSink {
  append(record: PermissionAuditRecord): Promise<void>
}
