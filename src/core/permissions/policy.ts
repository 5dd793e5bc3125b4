import {type PermissionMode, type PermissionRule, type Tier, TIERS} from '../config/types.js'
import {parseRulePattern, ruleMatches, type RulePattern, ruleTarget, type RuleTarget} from './rule-pattern.js'

/**
 * HIP-301 §7 PermissionPolicy: which mode a tool call gets, from the configured rules, the
 * shipped defaults and the session's permission mode, in that order:
 *
 * 1. Configured rules (test-vectors/README.md, "Permission rules"): in each tier the first
 *    matching rule in file order; if any tier's match is `deny` the call is denied, else the
 *    match of the highest tier (local > project > user) decides.
 * 2. Only when no configured rule matched: the shipped defaults, first match wins.
 * 3. The session mode (`--permission-mode`) changes what would prompt: `allow-all` allows it,
 *    `allow-reads` allows it for tools that change nothing, `deny` denies it, `prompt` leaves it.
 *    No session mode turns a deny into anything else.
 * 4. Nothing matched: prompt (HIP-301: the behaviour before rules existed).
 *
 * How one pattern matches a call is rule-pattern.ts; exec commands are cut by shell-command.ts.
 */

export type SessionPermissionMode = 'prompt' | 'allow-reads' | 'deny' | 'allow-all'

export const SESSION_PERMISSION_MODES: readonly SessionPermissionMode[] = ['prompt', 'allow-reads', 'deny', 'allow-all']

export interface DefaultPermissionRule {
  pattern: string
  mode: PermissionMode
  tier: 'default'
}

/**
 * What hanzo-dev ships: the read-only built-in tools run without asking. Everything else
 * prompts until a settings file says otherwise.
 */
export const DEFAULT_PERMISSION_RULES: ReadonlyArray<Omit<DefaultPermissionRule, 'tier'>> = [
  {mode: 'allow', pattern: 'fs_read'},
  {mode: 'allow', pattern: 'fs_list'},
  {mode: 'allow', pattern: 'fs_glob'},
  {mode: 'allow', pattern: 'fs_grep'},
]

export interface PermissionPolicyOptions {
  /** Consulted when no configured rule matches; the shipped {@link DEFAULT_PERMISSION_RULES} when left out. */
  defaults?: ReadonlyArray<{pattern: string; mode: PermissionMode}>
  /** The session's permission mode; `prompt` when left out. */
  mode?: SessionPermissionMode
}

export interface ToolCallFacts {
  /** Whether the tool changes anything (its definition says so); `allow-reads` needs `false`. */
  mutating: boolean
  /** The workspace-relative canonical form of a file tool's `path`, when the caller resolved it. */
  canonicalPath?: string
}

export type MatchedRule = PermissionRule | DefaultPermissionRule

/** A deny always says why: the reason goes back to the model and into the audit log. */
export type PermissionEvaluation =
  | {mode: 'deny'; rule: MatchedRule | null; reason: string}
  | {mode: 'allow' | 'prompt'; rule: MatchedRule | null; reason?: string}

interface CompiledRule<R extends MatchedRule> {
  rule: R
  /** Undefined for a pattern that cannot match anything (see parseRulePattern). */
  pattern?: RulePattern
}

const HIGHEST_TIER_FIRST: readonly Tier[] = [...TIERS].reverse()

export class PermissionPolicy {
  private readonly tiers: ReadonlyArray<CompiledRule<PermissionRule>[]>
  private readonly defaults: CompiledRule<DefaultPermissionRule>[]
  private readonly mode: SessionPermissionMode

  constructor(rules: readonly PermissionRule[], options: PermissionPolicyOptions = {}) {
    this.tiers = HIGHEST_TIER_FIRST.map((tier) => rules.filter((rule) => rule.tier === tier).map((rule) => compile(rule)))
    this.defaults = (options.defaults ?? DEFAULT_PERMISSION_RULES).map(({mode, pattern}) => compile({mode, pattern, tier: 'default'}))
    this.mode = options.mode ?? 'prompt'
  }

  /** Without `info` a tool counts as mutating: `allow-reads` never allows what it cannot tell is a read. */
  evaluate(toolName: string, input: Readonly<Record<string, unknown>> = {}, info?: ToolCallFacts): PermissionEvaluation {
    const target = ruleTarget(toolName, input, info?.canonicalPath)
    const tierMatches = this.tiers.map((rules) => firstMatch(rules, target)).filter((rule) => rule !== undefined)
    const rule = tierMatches.find(({mode}) => mode === 'deny') ?? tierMatches[0] ?? firstMatch(this.defaults, target)
    if (rule?.mode === 'deny') return {mode: 'deny', reason: denialReason(rule), rule}
    if (rule?.mode === 'allow') return {mode: 'allow', rule}
    return this.promptOrSessionMode(rule ?? null, info?.mutating ?? true)
  }

  private promptOrSessionMode(rule: MatchedRule | null, mutating: boolean): PermissionEvaluation {
    switch (this.mode) {
      case 'allow-all': {
        return {mode: 'allow', reason: 'permission mode allow-all allows what would be asked', rule}
      }

      case 'allow-reads': {
        return mutating ? {mode: 'prompt', rule} : {mode: 'allow', reason: 'permission mode allow-reads allows tools that change nothing', rule}
      }

      case 'deny': {
        return {mode: 'deny', reason: 'permission mode deny refuses every call that would need approval', rule}
      }

      case 'prompt': {
        return {mode: 'prompt', rule}
      }
    }
  }
}

function compile<R extends MatchedRule>(rule: R): CompiledRule<R> {
  return {pattern: parseRulePattern(rule.pattern), rule}
}

function firstMatch<R extends MatchedRule>(rules: CompiledRule<R>[], target: RuleTarget): R | undefined {
  return rules.find(({pattern, rule}) => pattern !== undefined && ruleMatches(pattern, rule.mode, target))?.rule
}

function denialReason(rule: MatchedRule): string {
  const where = rule.tier === 'default' ? 'the default rules' : `the ${rule.tier} settings (${rule.file})`
  return `"${rule.pattern}" is denied by ${where}`
}
