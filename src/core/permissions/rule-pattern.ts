import type {PermissionMode} from '../config/types.js'
import {globMatches} from './glob.js'
import {commandWords, type ParsedShellCommand, parseShellCommand, type SimpleCommand} from './shell-command.js'
import {canonicalToolName, toolSubject} from './tool-subject.js'

/**
 * A rule's pattern: `<tool glob>` or `<tool glob>(<argument glob>)`, e.g. `fs_read`,
 * `mcp__github__*`, `exec(git status*)`, `fs.write(src/*)`. The tool glob is matched against
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

/** A tool call as the rules see it, its subject read once for every rule. */
export interface RuleTarget {
  /** The canonical tool name (`.` spelled `_`). */
  name: string
  subject?: {kind: 'command'; line: string; parsed: ParsedShellCommand} | {kind: 'path'; given: string; canonical?: string}
}

/**
 * `canonicalPath` is the workspace-relative canonical form of a file tool's `path` (`..` and
 * symlinks resolved), when the caller has resolved it.
 */
export function ruleTarget(toolName: string, input: Readonly<Record<string, unknown>>, canonicalPath?: string): RuleTarget {
  const name = canonicalToolName(toolName)
  const subject = toolSubject(toolName, input)
  if (subject?.kind === 'command') return {name, subject: {kind: 'command', line: subject.command, parsed: parseShellCommand(subject.command)}}
  if (subject?.kind === 'path') return {name, subject: {canonical: canonicalPath, given: subject.path, kind: 'path'}}
  return {name}
}

/**
 * Whether a rule of this pattern and mode matches the call. Allow and prompt rules must cover
 * the whole call; deny rules match any part of it:
 * - exec: see shell-command.ts (every simple command and no hazards, vs any simple command);
 * - file tools: an allow or prompt rule matches the canonical path when the caller gave one
 *   (symlinks and `..` can make the path as given name another file), else the path as given
 *   unless it has a `..` segment; a deny rule matches either form.
 */
export function ruleMatches(pattern: RulePattern, mode: PermissionMode, target: RuleTarget): boolean {
  if (!globMatches(pattern.tool, target.name)) return false
  const {argument} = pattern
  const {subject} = target
  if (argument === undefined) return true
  if (subject === undefined) return false
  const matches = (text: string | undefined) => text !== undefined && globMatches(argument, text)
  if (subject.kind === 'command') {
    const {commands, hazards} = subject.parsed
    if (mode === 'deny') return matches(subject.line.trim()) || commands.some((command) => denyForms(command).some(matches))
    return hazards.length === 0 && commands.length > 0 && commands.every((command) => allowForms(command).some(matches))
  }

  if (mode === 'deny') return matches(subject.given) || matches(subject.canonical)
  return subject.canonical === undefined ? !PARENT_SEGMENT.test(subject.given) && matches(subject.given) : matches(subject.canonical)
}

const PARENT_SEGMENT = /(?:^|[/\\])\.\.(?:[/\\]|$)/

/** A simple command as written, and its words one space apart (so `git  status` and `'git' status` read as `git status`). */
function allowForms(command: SimpleCommand): string[] {
  return [command.text, command.words.join(' ')]
}

function denyForms(command: SimpleCommand): string[] {
  return [...allowForms(command), commandWords(command).join(' ')]
}
