import type {PermissionMode} from '../config/types.js'
import type {DenyForms} from './command-analysis.js'
import {globCoversShape, globMatches, globOverlapsShape} from './glob.js'
import {literalPathShapes, normalizePathGlob, normalizePathShape} from './path-forms.js'
import type {RuleTarget} from './rule-target.js'
import {canonicalToolName} from './tool-subject.js'
import {literalShape} from './word-shape.js'

/**
 * A rule's pattern: `<tool glob>` or `<tool glob>(<argument glob>)`, e.g. `fs_read`,
 * `mcp__github__*`, `exec(git status*)`, `fs.write(src/**)`. The tool glob is matched against
 * the whole tool name, with `.` and `_` equivalent; the argument glob against the call's
 * subject (tool-subject.ts). Both use glob.ts: `*` is any run of characters, `?` one.
 */
export interface RulePattern {
  /** The tool glob, `.` already spelled `_`. */
  tool: string
  argument?: string
}

/**
 * The pattern's parts, or undefined when it has none (empty, `(` without a closing `)` at the
 * end, a `)` without `(`, an empty tool glob): such a rule never matches. The argument runs
 * from the first `(` to the final `)`, so it may hold parentheses itself.
 */
export function parseRulePattern(pattern: string): RulePattern | undefined {
  const open = pattern.indexOf('(')
  if (open === -1) return pattern === '' || pattern.includes(')') ? undefined : {tool: canonicalToolName(pattern)}
  if (open === 0 || !pattern.endsWith(')')) return undefined
  return {argument: pattern.slice(open + 1, -1), tool: canonicalToolName(pattern.slice(0, open))}
}

/**
 * `certain`: the rule matches whatever the target turns out to be. `possible`: only a deny rule
 * on something known when the command runs (`$X -rf /` for `exec(rm *)`, `> "$F"` for a path).
 */
export type RuleMatch = 'certain' | 'possible' | undefined

/** One rule's answers for deny forms shared by many parts (the words of a wrapper around them). */
export type DenyMemo = WeakMap<DenyForms, RuleMatch | null>

/**
 * Whether a rule of this pattern and mode matches the target (rule-target.ts):
 * - a pattern without an argument matches every target of its tools, except that only deny
 *   rules see `write` and `unread` targets;
 * - `command`: an allow or prompt rule matches the part's literal forms, naming its program in
 *   full before any wildcard, and only when the line has no hazards; a deny rule its shapes and
 *   those of the wrappers around it;
 * - `line`: the line as written;
 * - `url`: the URL, ignoring case for a deny rule; or, written `domain:<host glob>`, the URL's
 *   host, ignoring case (`domain:docs.python.org` is that host alone, `domain:*.python.org` its
 *   subdomains);
 * - `path`: the rule's path is normalized (`./.env` is `.env`). An allow or prompt rule matches
 *   the canonical path when the caller gave one, nothing when the caller could not resolve it
 *   (null), else the path as given without a `..` segment; a deny rule matches any form, and
 *   ignores case (macOS and Windows file systems do);
 * - `write`: only deny rules, on the target's shape, normalized, ignoring case.
 */
export function matchRule(pattern: RulePattern, mode: PermissionMode, target: RuleTarget, memo?: DenyMemo): RuleMatch {
  if (!target.tools.some((tool) => globMatches(pattern.tool, tool))) return undefined
  const {argument} = pattern
  const deny = mode === 'deny'
  if (target.kind === 'write' || target.kind === 'unread') {
    if (!deny) return undefined
    if (argument === undefined) return target.kind === 'write' ? 'certain' : 'possible'
    return target.kind === 'unread'
      ? 'possible'
      : matchShapes(
          lower(normalizePathGlob(argument)),
          [target.write.shape, normalizePathShape(target.write.shape)].map(lower),
        )
  }

  if (argument === undefined) return 'certain'
  switch (target.kind) {
    case 'call': {
      return undefined
    }

    case 'line': {
      return globMatches(argument, target.line) ? 'certain' : undefined
    }

    case 'name': {
      return globMatches(argument, target.name) ? 'certain' : undefined
    }

    case 'url': {
      if (argument.startsWith(DOMAIN_PREFIX))
        return globMatches(lower(argument.slice(DOMAIN_PREFIX.length)), urlHost(target.url)) ? 'certain' : undefined
      return (deny ? globMatches(lower(argument), lower(target.url)) : globMatches(argument, target.url))
        ? 'certain'
        : undefined
    }

    case 'command': {
      if (deny) return matchDenyForms(argument, target.part.deny, memo)
      return target.vouched &&
        target.part.allow.some((form) => namesProgram(argument, form.head) && globMatches(argument, form.text))
        ? 'certain'
        : undefined
    }

    case 'path': {
      const glob = normalizePathGlob(argument)
      const {canonical, given} = target
      if (deny)
        return matchShapes(
          lower(glob),
          [...literalPathShapes(given), ...(typeof canonical === 'string' ? [literalShape(canonical)] : [])].map(lower),
        )
      if (canonical === null || (canonical === undefined && PARENT_SEGMENT.test(given))) return undefined
      const shape = canonical === undefined ? normalizePathShape(literalShape(given)) : literalShape(canonical)
      return globCoversShape(glob, shape) ? 'certain' : undefined
    }
  }
}

const DOMAIN_PREFIX = 'domain:'

/** The URL's host as rules name it: lowercase, an IPv6 address without brackets; empty when it has none. */
export function urlHost(url: string): string {
  try {
    return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1')
  } catch {
    return ''
  }
}

const PARENT_SEGMENT = /(?:^|[/\\])\.\.(?:[/\\]|$)/

/**
 * Whether an allow pattern spells out the program (and the assignments before it) before its
 * first wildcard, or leaves it open from the start (`exec(*)`): `exec(ls*)` names `ls -la`,
 * not `ls=1 touch M` (whose program is `touch`) nor `lsblk`.
 */
function namesProgram(argument: string, head: number): boolean {
  const wildcard = argument.search(/[*?]/)
  return wildcard === -1 || wildcard === 0 || wildcard >= head
}

function matchDenyForms(glob: string, forms: DenyForms, memo?: DenyMemo): RuleMatch {
  let match: RuleMatch
  for (let node: DenyForms | undefined = forms; node; node = node.outer) {
    let found = memo?.get(node)
    if (found === undefined) {
      found = matchShapes(glob, node.shapes) ?? null
      memo?.set(node, found)
    }

    if (found === 'certain') return found
    match = found ?? match
  }

  return match
}

function matchShapes(glob: string, shapes: readonly string[]): RuleMatch {
  let match: RuleMatch
  for (const shape of shapes) {
    if (!globOverlapsShape(glob, shape)) continue
    if (globCoversShape(glob, shape)) return 'certain'
    match = 'possible'
  }

  return match
}

function lower(text: string): string {
  return text.toLowerCase()
}
