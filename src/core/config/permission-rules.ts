import {globMatches} from '../permissions/glob.js'
import {parseRulePattern, type RulePattern} from '../permissions/rule-pattern.js'
import {isPlainObject} from './key-path.js'
import type {CheckedTier} from './tier-check.js'
import type {ConfigWarning, PermissionMode, PermissionRule, Tier} from './types.js'

/**
 * Merges every tier's `permissions` into one ordered rule list (HIP-301: the first match wins).
 *
 * - Each file's rules keep their file order, denies included: `{"exec(git status*)": "allow",
 *   "exec(*)": "deny"}` allows git status and denies the rest, as written.
 * - Order: local rules, then project rules, then user rules (the more specific setting is
 *   consulted first, as in the merge of every other key), each tier in its file order.
 * - A pattern set in several tiers takes the mode and the place of the highest tier (local >
 *   project > user)...
 * - ...except that a deny is never weakened: once any tier denies a pattern, a later `allow` or
 *   `prompt` for it is ignored with a warning. No tier can remove another tier's deny.
 * - Within a file the first match wins, so a rule after one that takes every call of its tools
 *   (`"exec": "allow"` before `"exec(rm *)": "deny"`) can never apply: that gets a warning.
 * Rules carry their tier: across tiers, the policy lets a deny of any tier win over another
 * tier's allow (test-vectors/README.md says how), and may ask before trusting a project's `allow`.
 */
export function mergePermissionRules(tiers: CheckedTier[]): {rules: PermissionRule[]; warnings: ConfigWarning[]} {
  const byPattern = new Map<string, PermissionRule & {index: number}>()
  const warnings: ConfigWarning[] = []
  for (const {data, file, tier} of tiers) {
    const permissions = isPlainObject(data.permissions) ? data.permissions : {}
    const catchAll: Array<{pattern: string; mode: unknown; tool: string}> = []
    for (const [index, [pattern, mode]] of Object.entries(permissions).entries()) {
      const parsed = parseRulePattern(pattern)
      const shadow = parsed && catchAll.find((earlier) => earlier.mode !== mode && covers(earlier.tool, parsed.tool))
      if (shadow) {
        warnings.push({
          file,
          keyPath: `permissions.${pattern}`,
          message: `comes after "${shadow.pattern}" (${String(shadow.mode)}), which matches the calls it names first, and in one file the first matching rule wins: put "${pattern}" before it`,
        })
      }

      if (parsed && takesEveryCall(parsed)) catchAll.push({mode, pattern, tool: parsed.tool})
      const previous = byPattern.get(pattern)
      if (previous?.mode === 'deny' && mode !== 'deny') {
        warnings.push({
          file,
          keyPath: `permissions.${pattern}`,
          message: `ignored: ${previous.file} denies "${pattern}"; a deny rule cannot be weakened`,
        })
        continue
      }

      byPattern.set(pattern, {file, index, mode: mode as PermissionMode, pattern, tier})
    }
  }

  const rules = [...byPattern.values()]
    .sort((a, b) => TIER_ORDER[a.tier] - TIER_ORDER[b.tier] || a.index - b.index)
    .map(({index: _index, ...rule}) => rule)
  return {rules, warnings}
}

const TIER_ORDER: Record<Tier, number> = {local: 0, project: 1, user: 2}

/** `exec`, `exec(*)`: a rule that matches every call of its tools, whatever the argument. */
function takesEveryCall(pattern: RulePattern): boolean {
  return pattern.argument === undefined || /^\*+$/.test(pattern.argument)
}

/** Whether every tool `later` names is one `earlier` names (a later glob only when earlier is `*`). */
function covers(earlier: string, later: string): boolean {
  if (/^\*+$/.test(earlier) || earlier === later) return true
  return !/[*?]/.test(later) && globMatches(earlier, later)
}
