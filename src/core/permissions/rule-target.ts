import {analyzeCommandLine, type CommandPart} from './command-analysis.js'
import type {ToolCallFacts} from './policy.js'
import {WRITE_RULE_TOOLS} from './protected-paths.js'
import {canonicalToolName} from './tool-subject.js'
import type {FileWrite} from './unwrapped.js'
import {hasLiteral, literalShape} from './word-shape.js'

/**
 * A tool call as the rules see it: the targets each rule is matched against on its own
 * (policy.ts decides from all of them). A call has one, by its subject (ToolDefinition.subject):
 * - `call`: none, matched by the tool's name alone;
 * - `path`: a path, `url`: a URL, `name`: a name, matched by the rule's argument;
 * a command line has:
 * - `command`: each part (command-analysis.ts), which must be allowed for the call to be;
 * - `line`: the whole line, for deny patterns that span parts (`exec(curl * | sh)`);
 * - `write`: each file it writes, when anything of its name is known (`> "$F"` or `rm -rf ~`
 *   could be any file, like whatever a program writes: that is for the sandbox);
 * - `unread`: when something in it cannot be read, or it hands code to an interpreter (fail
 *   closed: `echo rm -f x | sh` is one an `exec(rm*)` deny may match), which any deny rule of its tool may match
 *   (what it might write is, as with any program, for the sandbox).
 * A call that writes the path it names (writesSubject) is a `write` of that path too. `write`
 * targets are seen under the names of the writing rules (WRITE_RULE_TOOLS): the protected files
 * and a deny rule such as `fs_write(secret/**)` hold for every way of writing a file.
 * Only `call`, `path`, `url`, `name` and `command` targets need an allow rule; the others can only be denied.
 */
export type RuleTarget =
  | {kind: 'call'; tools: readonly string[]}
  | {kind: 'path'; tools: readonly string[]; given: string; canonical?: string | null}
  | {kind: 'url'; tools: readonly string[]; url: string}
  | {kind: 'name'; tools: readonly string[]; name: string}
  | {kind: 'command'; tools: readonly string[]; part: CommandPart; vouched: boolean}
  | {kind: 'line'; tools: readonly string[]; line: string}
  | {kind: 'write'; tools: readonly string[]; write: FileWrite; writer: string}
  | {kind: 'unread'; tools: readonly string[]; why: string}

/**
 * `facts.canonicalPath`: a path subject resolved in the workspace (relative, symlinks and `..`
 * resolved); null when it could not be (it leads out of the workspace): then no allow or
 * prompt rule with a path matches it.
 */
export function ruleTargets(toolName: string, facts: ToolCallFacts): RuleTarget[] {
  const name = canonicalToolName(toolName)
  const tools = [name]
  const {canonicalPath: canonical, subject} = facts
  switch (subject?.kind) {
    case 'path': {
      const target: RuleTarget = {canonical, given: subject.path, kind: 'path', tools}
      if (!writesSubject(facts)) return [target]
      const forms = new Set([subject.path, ...(typeof canonical === 'string' ? [canonical] : [])])
      return [
        target,
        ...[...forms].map((path): RuleTarget => ({
          kind: 'write',
          tools: WRITE_RULE_TOOLS,
          write: {shape: literalShape(path), target: subject.path},
          writer: name,
        })),
      ]
    }

    case 'url': {
      return [{kind: 'url', tools, url: subject.url}]
    }

    case 'command': {
      return commandTargets(subject.command, tools)
    }

    case 'name': {
      return [{kind: 'name', name: subject.name, tools}]
    }

    default: {
      return [{kind: 'call', tools}]
    }
  }
}

export function needsAllow(target: RuleTarget): boolean {
  return ['call', 'path', 'url', 'name', 'command'].includes(target.kind)
}

/**
 * Whether a call writes the path it names: an `edit` tool's call does, and so does that of any
 * tool that may change something unless it says it only reads. A plugin the user installed may
 * say so and write all the same (registry.ts, `trusted`), so its word is not taken.
 */
function writesSubject({kind = 'other', mutating, trusted}: ToolCallFacts): boolean {
  const reads = kind === 'read' && trusted !== false
  return kind === 'edit' || (mutating && !reads)
}

function commandTargets(command: string, tools: readonly string[]): RuleTarget[] {
  const {hazards, parts, writes} = analyzeCommandLine(command)
  const vouched = hazards.length === 0
  const targets: RuleTarget[] = parts.map((part) => ({kind: 'command', part, tools, vouched}))
  if (targets.length === 0) targets.push({kind: 'call', tools})
  targets.push({kind: 'line', line: command.trim(), tools})
  for (const write of writes)
    if (hasLiteral(write.shape)) targets.push({kind: 'write', tools: WRITE_RULE_TOOLS, write, writer: 'the command'})
  if (hazards.includes('unparsable')) targets.push({kind: 'unread', tools, why: 'cannot be read in full'})
  else if (hazards.includes('interpreter-code'))
    targets.push({kind: 'unread', tools, why: 'hands code to an interpreter, which no rule can read'})
  else if (hazards.includes('code-variable'))
    targets.push({
      kind: 'unread',
      tools,
      why: 'sets a variable that makes it load code no rule can read (LD_PRELOAD, PATH, NODE_OPTIONS, ...)',
    })
  return targets
}
