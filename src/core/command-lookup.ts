import {closest} from './closest.js'

/**
 * What a command line that names no command was meant to be. oclif joins the leading words of
 * a command line into one id (`doctor extra` -> `doctor:extra`) and, when no command has it,
 * asks the `command_not_found` hook, which answers with this.
 *
 * - `stray`: a command followed by words it does not take (`doctor extra`): run it, and its
 *   parser says "Unexpected argument".
 * - `typo`: one or more words are a near miss of a command or topic (`confg get`, `auth logn`).
 * - `unknown`: nothing near; `topic` is where the known words led, for its list of commands.
 */
export type UnknownCommand =
  | {kind: 'stray'; id: string; argv: string[]}
  | {kind: 'typo'; id: string; argv: string[]; topic: boolean; typed: string}
  | {kind: 'unknown'; topic?: string; typed: string}

export interface KnownNames {
  /** Command ids and aliases (`config:get`), hidden ones left out. */
  commands: string[]
  /** Topic ids (`config`, `auth`). */
  topics: string[]
}

/**
 * Resolves `args` (the command line as typed) word by word, as a shell corrects a path: each word
 * is matched against the names one level down, exactly or by a near miss. Only near misses are
 * offered (see `closest`): a guess far from what was typed runs the wrong thing when accepted.
 */
export function resolveUnknownCommand(args: string[], names: KnownNames): UnknownCommand {
  const commands = new Set(names.commands)
  const all = [...new Set([...names.commands, ...names.topics])]
  let id = ''
  let used = 0
  let corrected = false
  for (const word of args) {
    if (word.startsWith('-')) break
    const prefix = id === '' ? '' : `${id}:`
    const children = all
      .filter((n) => n.startsWith(prefix) && !n.slice(prefix.length).includes(':'))
      .map((n) => n.slice(prefix.length))
    const next = children.includes(word) ? word : closest(word, children)
    if (next === undefined) break
    corrected ||= next !== word
    id = prefix + next
    used++
  }

  const argv = args.slice(used)
  if (corrected) return {argv, id, kind: 'typo', topic: !commands.has(id), typed: args.slice(0, used).join(' ')}
  if (commands.has(id)) return {argv, id, kind: 'stray'}
  return {kind: 'unknown', topic: id === '' ? undefined : id, typed: args.slice(0, used + 1).join(' ')}
}

/**
 * A command line that names no command but asks the model, as Claude Code reads one: `-p` or
 * `--print` before any `--` runs the rest headless (`run`, flags passed on), and a first word
 * holding a space (`hanzo-dev "fix the bug"`) is a first prompt for the interactive session.
 * One word without a space stays a command, mistyped or unknown (`chta`).
 */
export function promptShortcut(args: readonly string[]): {id: 'run' | 'chat'; argv: string[]} | undefined {
  const end = args.indexOf('--')
  const print = (end === -1 ? args : args.slice(0, end)).findIndex((arg) => arg === '-p' || arg === '--print')
  if (print !== -1) return {argv: args.toSpliced(print, 1), id: 'run'}
  const [first] = args
  if (first !== undefined && !first.startsWith('-') && /\s/.test(first.trim())) return {argv: [...args], id: 'chat'}
  return undefined
}
