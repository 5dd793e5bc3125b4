import type {PermissionPolicy, ToolCallFacts} from './policy.js'
import {matchRule, parseRulePattern, type RulePattern} from './rule-pattern.js'
import {canonicalToolName} from './tool-subject.js'

/** One approval: what it allows, said as the question said it (approval-scope.ts chooses it). */
export interface SessionApproval {
  /** The tool's canonical name. */
  tool: string
  /** What it covers of the tool's calls, for a listing (`ls *`, `src/a.ts`, `exactly: ...`): may hold the model's text. */
  covers: string
  /** What it covers, for the question's key: "allow <question> for this session". */
  question: string
  /** Allow rules (`exec(ls *)`) that it adds for the session; none when it covers the exact call only. */
  rules: readonly string[]
  /** The exact call: the tool and its subject. */
  key: string
}

/**
 * The session's approvals, in the order given. One store may outlive a session (the chat keeps
 * it across `/model` and `/resume`): "this session" is the user's, as long as the UI runs.
 * An approval only answers what would be asked: a deny rule, a protected file or the session
 * mode `deny` stands before it, and a command line it covers only in part is asked about.
 */
export class SessionApprovals {
  private readonly approvals: Array<{approval: SessionApproval; patterns: RulePattern[]}> = []

  add(approval: SessionApproval): void {
    if (this.approvals.some((held) => sameScope(held.approval, approval))) return
    const patterns = approval.rules.map((rule) => parseRulePattern(rule)).filter((rule) => rule !== undefined)
    this.approvals.push({approval, patterns})
  }

  list(): SessionApproval[] {
    return this.approvals.map(({approval}) => approval)
  }

  /** Takes out the approval at `index` (0-based, in list order); undefined when there is none there. */
  remove(index: number): SessionApproval | undefined {
    return this.approvals.splice(index, 1)[0]?.approval
  }

  /** Whether the approvals answer this call: its exact call was approved, or an approval's rules allow every part of it that no saved rule allows. */
  covers(policy: PermissionPolicy, toolName: string, facts: ToolCallFacts): boolean {
    const key = exactKey(canonicalToolName(toolName), facts)
    if (this.approvals.some(({approval}) => approval.key === key)) return true
    const shortfall = policy.shortfall(toolName, facts)
    if ('deny' in shortfall || shortfall.unallowed.length === 0) return false
    return shortfall.unallowed.every((target) =>
      this.approvals.some(({patterns}) =>
        patterns.some((pattern) => matchRule(pattern, 'allow', target) === 'certain'),
      ),
    )
  }
}

/** A call of a tool that names subjects without one (exec without a command) has a key of its own too: never one that covers every call. */
export function exactKey(tool: string, facts: ToolCallFacts): string {
  return JSON.stringify([tool, facts.subject ?? null])
}

function sameScope(a: SessionApproval, b: SessionApproval): boolean {
  return a.rules.length > 0 ? a.tool === b.tool && a.rules.join('\n') === b.rules.join('\n') : a.key === b.key
}
