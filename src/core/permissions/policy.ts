import type {SessionPermissionMode, ToolKind, ToolSubject} from '@hanzo-dev/sdk'

import {type PermissionMode, type PermissionRule, type Tier, TIERS} from '../config/types.js'
import {PROTECTED_PERMISSION_RULES} from './protected-paths.js'
import {type DenyMemo, matchRule, parseRulePattern, type RuleMatch, type RulePattern} from './rule-pattern.js'
import {needsAllow, type RuleTarget, ruleTargets} from './rule-target.js'

/**
 * HIP-301 §7 PermissionPolicy: which mode a tool call gets. A call is judged as one or more
 * targets (rule-target.ts: an exec command line is a target per simple command, plus what it
 * writes), each by:
 *
 * 0. The protected rules (protected-paths.ts): shipped denies on the files that configure
 *    hanzo-dev, plus the ones the caller adds. Nothing overrides them.
 * 1. Configured rules (test-vectors/README.md, "Permission rules"): in each tier the first
 *    matching rule in file order; if any tier's match is `deny` it is denied, else the match of
 *    the highest tier (local > project > user) decides.
 * 2. Only when no configured rule matched: the shipped defaults, first match wins.
 *
 * The call is denied when any target is certainly denied; allowed only when every target that
 * needs it is allowed (each part of a command line by its own rule, perhaps of another tier)
 * and no deny rule may match; else it is asked. A deny rule that only may match (the command
 * holds expansions or globs that could turn into what it denies: rule-pattern.ts) makes the
 * call one a person decides: it is asked even where a rule allows it, and denied where no one
 * would be asked.
 *
 * 3. The session mode (`--permission-mode`) changes what would prompt: `allow-all` allows it,
 *    `allow-reads` allows it for tools that change nothing, `deny` denies it, `prompt` leaves it.
 *    No session mode turns a deny into anything else.
 * 4. Nothing matched: prompt (HIP-301: the behaviour before rules existed).
 */

export type {SessionPermissionMode} from '@hanzo-dev/sdk'

export const SESSION_PERMISSION_MODES: readonly SessionPermissionMode[] = ['prompt', 'allow-reads', 'deny', 'allow-all']

export interface DefaultPermissionRule {
  pattern: string
  mode: PermissionMode
  tier: 'default'
}

export interface ProtectedPermissionRule {
  pattern: string
  mode: 'deny'
  tier: 'protected'
}

/**
 * What hanzo-dev ships: its own read-only tools run without asking, the built-in ones and those
 * of the git and lsp plugins it comes with (only as those: {@link ToolCallFacts.trusted}).
 * Everything else prompts until a settings file says otherwise.
 */
export const DEFAULT_PERMISSION_RULES: ReadonlyArray<Omit<DefaultPermissionRule, 'tier'>> = [
  ...['fs_read', 'fs_list', 'fs_glob', 'fs_grep'],
  // The plan the user sees: it changes nothing outside the conversation.
  'todo_write',
  // Reads only the skill folders the user installed or trusted, never the workspace.
  'skill',
  // A subagent changes nothing itself: each call its child makes is judged by these same rules.
  'task',
  ...['git_status', 'git_diff', 'git_log'],
  ...['lsp_diagnostics', 'lsp_definition', 'lsp_references', 'lsp_hover', 'lsp_symbols'],
].map((pattern) => ({mode: 'allow', pattern}))

export interface PermissionPolicyOptions {
  /** Consulted when no configured rule matches; the shipped {@link DEFAULT_PERMISSION_RULES} when left out. */
  defaults?: ReadonlyArray<{pattern: string; mode: PermissionMode}>
  /** Deny patterns checked before everything, besides the shipped ones (protectedPathRules). */
  protected?: ReadonlyArray<{pattern: string}>
  /** The session's permission mode; `prompt` when left out. */
  mode?: SessionPermissionMode
}

/** What the policy knows of a call besides its tool's name: what the tool says of it (call-description.ts), and the caller's view. */
export interface ToolCallFacts {
  /** Whether the tool changes anything (its definition says so); `allow-reads` needs `false`. */
  mutating: boolean
  /** What the rules' arguments are matched against; none (undefined or null): the call is matched by its tool's name alone. */
  subject?: ToolSubject | null
  /** The tool's kind (`other` when absent): a call that writes the path it names is held to the rules on writing files (rule-target.ts). */
  kind?: ToolKind
  /**
   * The workspace-relative canonical form of a path subject, when the caller resolved it;
   * null when it tried and the path leads out of the workspace (no allow rule then matches).
   */
  canonicalPath?: string | null
  /**
   * False for a tool of a plugin the user installed, or of an MCP server: the shipped defaults
   * name hanzo-dev's own read-only tools, and such a tool could take one of their names (a user
   * plugin overriding the git plugin), so no shipped allow covers it. True when absent.
   */
  trusted?: boolean
}

export type MatchedRule = PermissionRule | DefaultPermissionRule | ProtectedPermissionRule

/** A deny always says why: the reason goes back to the model and into the audit log. */
export type PermissionEvaluation =
  | {mode: 'deny'; rule: MatchedRule | null; reason: string}
  | {mode: 'allow' | 'prompt'; rule: MatchedRule | null; reason?: string}

interface CompiledRule<R extends MatchedRule> {
  rule: R
  /** Undefined for a pattern that cannot match anything (see parseRulePattern). */
  pattern?: RulePattern
  memo: DenyMemo
}

interface Hit {
  rule: MatchedRule
  match: RuleMatch
}

/** How one target fares: the deny that matches it (a certain one first), and the rule that decides otherwise. */
interface Verdict {
  target: RuleTarget
  deny?: Hit
  decision?: MatchedRule
}

const HIGHEST_TIER_FIRST: readonly Tier[] = [...TIERS].reverse()

/** What keeps a call from being allowed: a deny rule that may match it, or the targets no rule allows yet. */
export type PermissionShortfall = {deny: MatchedRule; reason: string} | {unallowed: RuleTarget[]}

export class PermissionPolicy {
  private readonly protected: CompiledRule<ProtectedPermissionRule>[]
  private readonly tiers: ReadonlyArray<CompiledRule<PermissionRule>[]>
  private readonly defaults: CompiledRule<DefaultPermissionRule>[]
  private readonly mode: SessionPermissionMode

  constructor(
    private readonly rules: readonly PermissionRule[],
    private readonly options: PermissionPolicyOptions = {},
  ) {
    const protectedRules = [...PROTECTED_PERMISSION_RULES, ...(options.protected ?? [])]
    this.protected = protectedRules.map(({pattern}) => compile({mode: 'deny', pattern, tier: 'protected'}))
    this.tiers = HIGHEST_TIER_FIRST.map((tier) =>
      rules.filter((rule) => rule.tier === tier).map((rule) => compile(rule)),
    )
    this.defaults = (options.defaults ?? DEFAULT_PERMISSION_RULES).map(({mode, pattern}) =>
      compile({mode, pattern, tier: 'default'}),
    )
    this.mode = options.mode ?? 'prompt'
  }

  /** Without `info` a tool counts as mutating (`allow-reads` never allows what it cannot tell is a read), and its call has no subject. */
  evaluate(toolName: string, info: ToolCallFacts = {mutating: true}): PermissionEvaluation {
    const verdicts = ruleTargets(toolName, info).map((target) => this.judge(target, info.trusted ?? true))
    const certain = verdicts.find(({deny}) => deny?.match === 'certain')
    if (certain)
      return {mode: 'deny', reason: denialReason(certain.deny!.rule, certain.target), rule: certain.deny!.rule}
    // What the scanner cannot resolve counts as matching the deny rule it may match (fail
    // closed): no mode and no person at a prompt can allow it.
    const possible = verdicts.find(({deny}) => deny !== undefined)
    if (possible)
      return {
        mode: 'deny',
        reason: `${possibleReason(possible.deny!.rule, possible.target)} (denied: what cannot be resolved counts as a match)`,
        rule: possible.deny!.rule,
      }
    const {mutating} = info
    const decisions = verdicts.filter(({target}) => needsAllow(target)).map(({decision}) => decision)
    if (decisions.every((rule) => rule?.mode === 'allow')) return {mode: 'allow', rule: decisions[0]!}
    return this.promptOrSessionMode(decisions.find((rule) => rule?.mode !== 'allow') ?? null, mutating)
  }

  /** For the rules a denial suggests (allow-advice.ts): what stands between the call and `allow`, whatever the session mode. */
  shortfall(toolName: string, info: ToolCallFacts = {mutating: true}): PermissionShortfall {
    const verdicts = ruleTargets(toolName, info).map((target) => this.judge(target, info.trusted ?? true))
    const denied = verdicts.find(({deny}) => deny?.match === 'certain') ?? verdicts.find(({deny}) => deny !== undefined)
    if (denied) {
      const {match, rule} = denied.deny!
      return {
        deny: rule,
        reason: match === 'certain' ? denialReason(rule, denied.target) : possibleReason(rule, denied.target),
      }
    }

    return {
      unallowed: verdicts
        .filter(({decision, target}) => needsAllow(target) && decision?.mode !== 'allow')
        .map(({target}) => target),
    }
  }

  /** This policy with `rules` added after the configured ones, in the session mode `prompt`. */
  withRules(rules: readonly PermissionRule[]): PermissionPolicy {
    return new PermissionPolicy([...this.rules, ...rules], {...this.options, mode: 'prompt'})
  }

  private judge(target: RuleTarget, trusted: boolean): Verdict {
    const tiers = this.tiers.map((rules) => firstHits(rules, target))
    const defaults = trusted ? this.defaults : this.defaults.filter(({rule}) => rule.mode !== 'allow')
    const scanned = tiers.some(({certain, possible}) => certain ?? possible) ? tiers : [firstHits(defaults, target)]
    const deciding = scanned.map(({certain}) => certain).filter((hit) => hit !== undefined)
    const guarded = firstHits(this.protected, target)
    const deny =
      guarded.certain ??
      deciding.find(({rule}) => rule.mode === 'deny') ??
      guarded.possible ??
      scanned.find(({possible}) => possible)?.possible
    return {decision: deciding[0]?.rule, deny, target}
  }

  private promptOrSessionMode(rule: MatchedRule | null, mutating: boolean): PermissionEvaluation {
    switch (this.mode) {
      case 'allow-all': {
        return {mode: 'allow', reason: 'permission mode allow-all allows what would be asked', rule}
      }

      case 'allow-reads': {
        return mutating
          ? {mode: 'prompt', rule}
          : {mode: 'allow', reason: 'permission mode allow-reads allows tools that change nothing', rule}
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
  return {memo: new WeakMap(), pattern: parseRulePattern(rule.pattern), rule}
}

/**
 * The first rule that certainly matches, and the first deny before it that may match: a deny
 * written before an allow still stands when the command may be what it denies.
 */
function firstHits(rules: readonly CompiledRule<MatchedRule>[], target: RuleTarget): {certain?: Hit; possible?: Hit} {
  let possible: Hit | undefined
  for (const {memo, pattern, rule} of rules) {
    const match = pattern && matchRule(pattern, rule.mode, target, memo)
    if (match === 'certain') return {certain: {match, rule}, possible}
    if (match === 'possible') possible ??= {match, rule}
  }

  return {possible}
}

function ruleSource(rule: MatchedRule): string {
  if (rule.tier === 'protected') return 'protected: hanzo-dev never lets a tool write the files that configure it'
  return `denied by ${rule.tier === 'default' ? 'the default rules' : `the ${rule.tier} settings (${rule.file})`}`
}

function denialReason(rule: MatchedRule, target: RuleTarget): string {
  const written = target.kind === 'write' ? ` (${target.writer} writes ${target.write.target})` : ''
  return `"${rule.pattern}" is ${ruleSource(rule)}${written}`
}

/** Only command, write and unread targets match possibly (rule-pattern.ts). */
function possibleReason(rule: MatchedRule, target: RuleTarget): string {
  const matched = `"${rule.pattern}" matches: that is ${ruleSource(rule)}`
  if (target.kind === 'write')
    return `${target.writer} writes ${target.write.target}, which may turn out to be a file ${matched}`
  if (target.kind === 'unread') return `the command ${target.why}, and may hold one ${matched}`
  return `once its expansions, globs or braces are known, the command may turn out to be one ${matched}`
}
