import type {FileChange} from '@hanzo-dev/sdk'

import type {PermissionPrompter, PermissionRequestContext} from '../agent/types.js'
import {allowAdvice} from './allow-advice.js'
import type {AuditSink, PermissionAuditRecord} from './audit-record.js'
import type {PermissionEvaluation, PermissionPolicy, ToolCallFacts} from './policy.js'
import {sessionApproval} from './approval-scope.js'
import {SessionApprovals} from './session-approvals.js'

/** A call to decide: what the policy judges (ToolCallFacts), and what a question shows. */
export interface PermissionCheck extends ToolCallFacts {
  toolName: string
  input: Readonly<Record<string, unknown>>
  sessionId: string
  /** Set when the tool changed since the user approved it (an MCP tool's new description): a rule's allow then asks again. */
  reconfirm?: string
  /** The call in one line (ToolDefinition.describe), for the question. */
  title?: string
  /** What the call would change (ToolDefinition.preview), shown before the question. */
  preview?: () => Promise<FileChange[]>
}

export type PermissionOutcome = {allowed: true} | {allowed: false; reason: string}

export interface PermissionGateOptions {
  policy: PermissionPolicy
  prompter: PermissionPrompter
  audit: AuditSink
  /** The clock for audit timestamps. */
  now?: () => Date
  /** Where "allow for this session" is kept (the chat keeps its own, to list and remove); a store of the gate's own when left out. */
  approvals?: SessionApprovals
}

/**
 * The first stage of the tool pipeline (ARCHITECTURE.md): the policy decides, and when it says
 * prompt the prompter asks. Every decision is exactly one audit record, written before the
 * caller goes on. A decision that cannot be recorded is a deny, as hooks fail closed: what runs
 * must be in the log.
 *
 * "Allow for this session" allows what the question said it would (session-approvals.ts): a
 * command's prefix rule when one is safe (`ls *` for `ls -la`), else the exact command; the file
 * of a file tool; every call of a tool without subjects. A remembered approval only answers a
 * prompt: it never overrides a deny. A prompter that escalates has no one above it here, so that is a deny.
 * The prompter is also told how the call could be allowed without asking (allow-advice.ts).
 */
export class PermissionGate {
  private readonly policy: PermissionPolicy
  private readonly prompter: PermissionPrompter
  private readonly audit: AuditSink
  private readonly now: () => Date
  private readonly approvals: SessionApprovals

  constructor(options: PermissionGateOptions) {
    this.policy = options.policy
    this.prompter = options.prompter
    this.audit = options.audit
    this.now = options.now ?? (() => new Date())
    this.approvals = options.approvals ?? new SessionApprovals()
  }

  async check(call: PermissionCheck): Promise<PermissionOutcome> {
    const evaluation = this.policy.evaluate(call.toolName, facts(call))
    switch (evaluation.mode) {
      case 'allow': {
        return call.reconfirm ? this.ask(call, evaluation) : this.allow(call, evaluation, evaluation.reason)
      }

      case 'deny': {
        return this.deny(call, evaluation, evaluation.reason)
      }

      case 'prompt': {
        return this.ask(call, evaluation)
      }
    }
  }

  /**
   * A call the session refuses whatever the rules say (its tool is not offered: ToolScope):
   * recorded as a deny, like any other decision.
   */
  async refuse(call: Pick<PermissionCheck, 'sessionId' | 'toolName'>, reason: string): Promise<void> {
    await this.record(call, {mode: 'deny', rule: null}, 'deny', reason).catch(() => {})
  }

  private async ask(call: PermissionCheck, evaluation: PermissionEvaluation): Promise<PermissionOutcome> {
    if (!call.reconfirm && this.approvals.covers(this.policy, call.toolName, facts(call)))
      return this.allow(call, evaluation, 'approved earlier in this session')
    const {canonicalPath, kind, preview, reconfirm, title} = call
    const offered = sessionApproval(call.toolName, facts(call))
    const context: PermissionRequestContext = {
      advice: allowAdvice(this.policy, call.toolName, facts(call)),
      sessionScope: offered.question,
      ...(reconfirm ? {notice: reconfirm} : {}),
      ...(title === undefined ? {} : {title}),
      ...(preview ? {preview} : {}),
      ...(kind ? {kind} : {}),
      ...(typeof canonicalPath === 'string' ? {inWorkspace: true} : {}),
    }
    const decision = await this.prompter
      .requestPermission(call.toolName, {...call.input}, context)
      .catch(async (error: unknown) => {
        await this.record(call, evaluation, 'deny', 'the permission prompt ended without an answer').catch(() => {})
        throw error
      })
    switch (decision.type) {
      case 'allow': {
        if (decision.scope === 'session') this.approvals.add(offered)
        return this.allow(
          call,
          evaluation,
          decision.scope === 'session' ? 'approved for this session' : 'approved once',
        )
      }

      case 'deny': {
        return this.deny(call, evaluation, decision.reason)
      }

      case 'escalate': {
        return this.deny(
          call,
          evaluation,
          `no one could approve ${call.toolName}: the permission prompt escalated it, and there is no one to escalate to`,
        )
      }
    }
  }

  private async allow(
    call: PermissionCheck,
    evaluation: PermissionEvaluation,
    reason?: string,
  ): Promise<PermissionOutcome> {
    try {
      await this.record(call, evaluation, 'allow', reason)
    } catch (error) {
      return {
        allowed: false,
        reason: `${error instanceof Error ? error.message : String(error)}; a decision that is not in the audit log is a deny`,
      }
    }

    return {allowed: true}
  }

  private async deny(
    call: PermissionCheck,
    evaluation: PermissionEvaluation,
    reason: string,
  ): Promise<PermissionOutcome> {
    // Denied either way; an audit sink that cannot write has said why on the calls it would allow.
    await this.record(call, evaluation, 'deny', reason).catch(() => {})
    return {allowed: false, reason}
  }

  private record(
    call: Pick<PermissionCheck, 'sessionId' | 'toolName'>,
    evaluation: Pick<PermissionEvaluation, 'mode' | 'rule'>,
    decision: 'allow' | 'deny',
    reason: string | undefined,
  ): Promise<void> {
    const record: PermissionAuditRecord = {
      decision,
      mode: evaluation.mode,
      reason: reason ?? null,
      rule_matched: evaluation.rule?.pattern ?? null,
      session_id: call.sessionId,
      timestamp: this.now().toISOString(),
      tool_name: call.toolName,
    }
    return this.audit.append(record)
  }
}

function facts({canonicalPath, kind, mutating, subject, trusted}: PermissionCheck): ToolCallFacts {
  return {canonicalPath, kind, mutating, subject, trusted}
}
