import type {FileChange} from '@hanzo-dev/sdk'

import type {PermissionPrompter, PermissionRequestContext} from '../agent/types.js'
import {allowAdvice} from './allow-advice.js'
import type {AuditSink, PermissionAuditRecord} from './audit-record.js'
import type {PermissionEvaluation, PermissionPolicy, ToolCallFacts} from './policy.js'
import {canonicalToolName} from './tool-subject.js'

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
}

/**
 * The first stage of the tool pipeline (ARCHITECTURE.md): the policy decides, and when it says
 * prompt the prompter asks. Every decision is exactly one audit record, written before the
 * caller goes on. A decision that cannot be recorded is a deny, as hooks fail closed: what runs
 * must be in the log.
 *
 * "Allow for this session" is remembered per session for the tool and its exact subject (the
 * same command line, the same path as given), or for the tool alone when it has no subject, so
 * the same call is not asked again. A remembered approval only answers a prompt: it never
 * overrides a deny. A prompter that escalates has no one above it here, so that is a deny.
 * The prompter is also told how the call could be allowed without asking (allow-advice.ts).
 */
export class PermissionGate {
  private readonly policy: PermissionPolicy
  private readonly prompter: PermissionPrompter
  private readonly audit: AuditSink
  private readonly now: () => Date
  private readonly sessionApprovals = new Set<string>()

  constructor(options: PermissionGateOptions) {
    this.policy = options.policy
    this.prompter = options.prompter
    this.audit = options.audit
    this.now = options.now ?? (() => new Date())
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
    const key = approvalKey(call)
    if (!call.reconfirm && this.sessionApprovals.has(key))
      return this.allow(call, evaluation, 'approved earlier in this session')
    const {preview, reconfirm, title} = call
    const context: PermissionRequestContext = {
      advice: allowAdvice(this.policy, call.toolName, facts(call)),
      ...(reconfirm ? {notice: reconfirm} : {}),
      ...(title === undefined ? {} : {title}),
      ...(preview ? {preview} : {}),
    }
    const decision = await this.prompter
      .requestPermission(call.toolName, {...call.input}, context)
      .catch(async (error: unknown) => {
        await this.record(call, evaluation, 'deny', 'the permission prompt ended without an answer').catch(() => {})
        throw error
      })
    switch (decision.type) {
      case 'allow': {
        if (decision.scope === 'session') this.sessionApprovals.add(key)
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

/** A call of a tool that names subjects without one (exec without a command) has a key of its own too: never one that covers every call. */
function approvalKey(call: PermissionCheck): string {
  return JSON.stringify([call.sessionId, canonicalToolName(call.toolName), call.subject ?? null])
}

function facts({canonicalPath, kind, mutating, subject, trusted}: PermissionCheck): ToolCallFacts {
  return {canonicalPath, kind, mutating, subject, trusted}
}
