import {allowRuleFor} from './allow-advice.js'
import {commandPrefix} from './command-prefix.js'
import type {ToolCallFacts} from './policy.js'
import {ruleTargets} from './rule-target.js'
import {exactKey, type SessionApproval} from './session-approvals.js'
import {canonicalToolName} from './tool-subject.js'

/**
 * What "allow for this session" on a call allows, said in the question before it is chosen:
 * - a command: its prefix rule when one is safe (command-prefix.ts): `a` on `ls -la` allows
 *   `exec(ls)` and `exec(ls *)`; else that exact command line;
 * - a path: that file (its canonical path in the workspace), by that tool: the obvious unit of
 *   an edit, and never a directory the user did not look at; a path out of the workspace, or
 *   one no rule can spell, only as given;
 * - a URL: exactly that URL; a name (an MCP server): that name; a tool without subjects: every call of it.
 * Its rules are allow rules as settings write them (rule-pattern.ts), matched as the policy
 * matches them: each part of a command line by its own rule, none when the line holds
 * something no rule can read.
 */
export function sessionApproval(toolName: string, facts: ToolCallFacts): SessionApproval {
  const tool = canonicalToolName(toolName)
  const {subject} = facts
  const key = exactKey(tool, facts)
  const exact = (what: string, given: string): SessionApproval => ({
    covers: `exactly: ${given}`,
    key,
    question: `this exact ${what}`,
    rules: [],
    tool,
  })
  switch (subject?.kind) {
    case 'command': {
      const chosen = commandPrefix(subject.command)
      if ('exact' in chosen) return exact('command', subject.command)
      const {prefix} = chosen
      return {
        covers: `${prefix} *`,
        key,
        question: `\`${prefix} *\``,
        rules: [`${tool}(${prefix})`, `${tool}(${prefix} *)`],
        tool,
      }
    }

    case 'path': {
      const rule = allowRuleFor(ruleTargets(tool, facts)[0], subject)
      const path = 'pattern' in rule ? rule.pattern.slice(tool.length + 1, -1) : ''
      // A path the rule's glob would widen, or one only given with `..`, stays the call as given.
      if ('why' in rule || /[*?]/.test(path) || PARENT_SEGMENT.test(path)) return exact('call', subject.path)
      return {covers: path, key, question: `${tool} on \`${path}\``, rules: [rule.pattern], tool}
    }

    case 'url': {
      return exact('URL', subject.url)
    }

    case 'name': {
      return {
        covers: subject.name,
        key,
        question: `${tool} for \`${subject.name}\``,
        rules: [`${tool}(${subject.name})`],
        tool,
      }
    }

    default: {
      // A tool that names subjects, in a call without one: never every call of it.
      if (subject === null) return exact('call', 'a call that names nothing')
      return {covers: 'every call', key, question: `every ${tool} call`, rules: [], tool}
    }
  }
}

const PARENT_SEGMENT = /(?:^|[/\\])\.\.(?:[/\\]|$)/
