import {LOCAL_FILE, PROJECT_DIR} from '../config/locate.js'
import {wordsCarrySecret} from '../config/sensitive.js'
import {analyzeCommandLine, type CommandHazard} from './command-analysis.js'
import type {PermissionPolicy, ToolCallFacts} from './policy.js'
import type {RuleTarget} from './rule-target.js'
import type {ToolSubject} from './tool-subject.js'

/**
 * What a denial tells the user to allow a call next time (off a terminal no one can be asked):
 * - `rules`: allow rules that, added at the end of the local settings, allow exactly this call.
 *   One per part of a command line that no rule allows yet, each naming that part as it runs
 *   (`exec(npm test)`; not `exec(npm *)`, which would allow `npm publish` too), a path subject
 *   in the workspace, a URL, or a tool without subjects by its name. Checked before they are
 *   suggested: with them added, the policy allows the call.
 * - `none`: no allow rule can (`why` says what stops it); `sessionMode` says whether
 *   `--permission-mode allow-all` still would (not when a deny rule may match: that is a deny).
 * A rule that would spell out a secret (`exec(TOKEN=... curl ...)`) is never suggested (the
 * denial goes to the model and into the audit log), nor one for a command holding `*` or `?`,
 * which the rule would read as wildcards.
 */
export type AllowAdvice = {kind: 'rules'; rules: string[]} | {kind: 'none'; why: string; sessionMode: boolean}

/** Where the suggested rules go: the user's own settings for this project, outside git. */
const LOCAL_SETTINGS = `${PROJECT_DIR}/${LOCAL_FILE}`

export function allowAdvice(
  policy: PermissionPolicy,
  toolName: string,
  facts: ToolCallFacts = {mutating: true},
): AllowAdvice {
  const shortfall = policy.shortfall(toolName, facts)
  if ('deny' in shortfall) return {kind: 'none', sessionMode: false, why: shortfall.reason}
  const rules = new Set<string>()
  for (const target of shortfall.unallowed) {
    const rule = allowRuleFor(target, facts.subject)
    if ('why' in rule) return {kind: 'none', sessionMode: true, why: rule.why}
    rules.add(rule.pattern)
  }

  const added = [...rules].map((pattern) => ({
    file: LOCAL_SETTINGS,
    mode: 'allow' as const,
    pattern,
    tier: 'local' as const,
  }))
  const after = policy.withRules(added).evaluate(toolName, facts)
  if (after.mode === 'allow') return {kind: 'rules', rules: [...rules]}
  const first = after.rule && 'file' in after.rule ? after.rule : undefined
  return {
    kind: 'none',
    sessionMode: true,
    why: first
      ? `"${first.pattern}": "${first.mode}" in ${first.file} comes first and decides it`
      : 'no allow rule can match it as it is',
  }
}

/** The allow rule that names `target` as it is (the suggestions above, and "allow for this session": session-approvals.ts), or why none can. */
export function allowRuleFor(
  target: RuleTarget,
  subject: ToolSubject | null | undefined,
): {pattern: string} | {why: string} {
  const [tool] = target.tools
  switch (target.kind) {
    case 'call': {
      // A tool that names subjects, in a call without one: only its bare name would match, and that allows every call.
      if (subject !== undefined) return {why: 'the call names no path, command or URL a rule could name'}
      return {pattern: tool}
    }

    case 'path': {
      if (target.canonical === null) return {why: 'its path leads out of the workspace, where no allow rule reaches'}
      return {pattern: `${tool}(${target.canonical ?? target.given})`}
    }

    case 'url': {
      if (wordsCarrySecret([target.url])) return {why: 'the URL may hold a secret, which a rule would spell out'}
      if (/[*?]/.test(target.url))
        return {why: 'the URL holds * or ?, which a rule would read as wildcards that match more than it'}
      return {pattern: `${tool}(${target.url})`}
    }

    case 'name': {
      return {pattern: `${tool}(${target.name})`}
    }

    case 'command': {
      if (!target.vouched) return {why: hazardWhy(subject)}
      // The words after quote removal: the form rule-pattern.ts matches, without the shell's quoting.
      const words = target.part.allow.at(-1)!.text
      if (wordsCarrySecret(words.split(' ')))
        return {why: 'the command may hold a secret, which a rule would spell out'}
      // In a rule `*` and `?` are wildcards: `exec(rm *.o)` would also allow `rm -rf ~ x.o`.
      if (/[*?]/.test(words))
        return {why: 'the command holds * or ?, which a rule would read as wildcards that match more than it'}
      return {pattern: `${tool}(${words})`}
    }

    default: {
      return {why: 'only a deny rule can match it'}
    }
  }
}

/** What each hazard (command-analysis.ts) does, said of the command line. */
const HAZARDS: Readonly<Record<CommandHazard, string>> = {
  'code-variable':
    'sets a variable that makes it load code or config (LD_PRELOAD, PATH, NODE_OPTIONS, ...), which a rule cannot read',
  'dynamic-command': 'names a command by an expansion, a glob or a brace',
  'executing-option': 'gives an option that runs commands (git -c, make -f, ...)',
  'file-redirection': 'redirects output to a file (a rule cannot see where a file name leads)',
  heredoc: 'holds a here-document',
  'hidden-character': 'holds control or invisible characters',
  'interpreter-code':
    'hands code to an interpreter (`python -c`, `| sh`, `. <(...)`, an option whose value runs), which a rule cannot read',
  'non-ascii-command': 'names a command with non-ASCII characters',
  unparsable: 'cannot be read in full',
}

function hazardWhy(subject: ToolSubject | null | undefined): string {
  const hazards = subject?.kind === 'command' ? analyzeCommandLine(subject.command).hazards : []
  return `no allow rule matches this command line: it ${hazards.map((hazard) => HAZARDS[hazard]).join(' and ') || 'cannot be read in full'}`
}
