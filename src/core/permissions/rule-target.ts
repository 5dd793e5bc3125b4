import {analyzeCommandLine, type CommandPart} from './command-analysis.js'
import type {FileWrite} from './unwrapped.js'
import {WRITING_TOOLS} from './protected-paths.js'
import {canonicalToolName, toolSubject} from './tool-subject.js'
import {hasLiteral} from './word-shape.js'

/**
 * A tool call as the rules see it: the targets each rule is matched against on its own
 * (policy.ts decides from all of them). A call has one; an exec command line has:
 * - `command`: each part (command-analysis.ts), which must be allowed for the call to be;
 * - `line`: the whole line, for deny patterns that span parts (`exec(curl * | sh)`);
 * - `write`: each file it writes, for the deny rules of the writing tools, when anything of its
 *   name is known (`> "$F"` or `rm -rf ~` could be any file, like whatever a program writes:
 *   that is for the sandbox);
 * - `unread`: when something in it cannot be read, or it hands code to an interpreter (fail
 *   closed: `echo rm -f x | sh` is one an `exec(rm*)` deny may match), which any deny rule of exec may match
 *   (what it might write is, as with any program, for the sandbox).
 * Only `call`, `path` and `command` targets need an allow rule; the others can only be denied.
 */
export type RuleTarget =
  | {kind: 'call'; tools: readonly string[]}
  | {kind: 'path'; tools: readonly string[]; given: string; canonical?: string | null}
  | {kind: 'command'; tools: readonly string[]; part: CommandPart; vouched: boolean}
  | {kind: 'line'; tools: readonly string[]; line: string}
  | {kind: 'write'; tools: readonly string[]; write: FileWrite}
  | {kind: 'unread'; tools: readonly string[]; why: string}

const EXEC = ['exec']

/**
 * `canonicalPath`: a file tool's `path` resolved in the workspace (relative, symlinks and `..`
 * resolved); null when it could not be (it leads out of the workspace): then no allow or
 * prompt rule with a path matches it.
 */
export function ruleTargets(toolName: string, input: Readonly<Record<string, unknown>>, canonicalPath?: string | null): RuleTarget[] {
  const tools = [canonicalToolName(toolName)]
  const subject = toolSubject(toolName, input)
  if (subject?.kind === 'path') return [{canonical: canonicalPath, given: subject.path, kind: 'path', tools}]
  if (subject?.kind !== 'command') return [{kind: 'call', tools}]
  const {hazards, parts, writes} = analyzeCommandLine(subject.command)
  const vouched = hazards.length === 0
  const targets: RuleTarget[] = parts.map((part) => ({kind: 'command', part, tools: EXEC, vouched}))
  if (targets.length === 0) targets.push({kind: 'call', tools: EXEC})
  targets.push({kind: 'line', line: subject.command.trim(), tools: EXEC})
  for (const write of writes) if (hasLiteral(write.shape)) targets.push({kind: 'write', tools: WRITING_TOOLS, write})
  if (hazards.includes('unparsable')) targets.push({kind: 'unread', tools: EXEC, why: 'cannot be read in full'})
  else if (hazards.includes('interpreter-code')) targets.push({kind: 'unread', tools: EXEC, why: 'hands code to an interpreter, which no rule can read'})
  else if (hazards.includes('code-variable')) targets.push({kind: 'unread', tools: EXEC, why: 'sets a variable that makes it load code no rule can read (LD_PRELOAD, PATH, NODE_OPTIONS, ...)'})
  return targets
}

export function needsAllow(target: RuleTarget): boolean {
  return target.kind === 'call' || target.kind === 'path' || target.kind === 'command'
}
