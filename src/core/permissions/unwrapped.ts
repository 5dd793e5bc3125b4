import {hasWildcard} from './word-shape.js'

/**
 * What a command runs besides itself, as the wrapper tables report it (command-wrappers.ts,
 * argv-wrappers.ts, interpreters.ts, git-options.ts) and the analysis reads it
 * (command-analysis.ts).
 */

/** Words with their shapes (word-shape.ts). */
export interface Argv {
  words: readonly string[]
  shapes: readonly string[]
}

export interface Script {
  text: string
  /** False when the outer shell expands parts of it first. */
  literal: boolean
}

export interface FileWrite {
  /** As written, quotes removed. */
  target: string
  shape: string
}

/**
 * - `unparsable`: where the command starts cannot be told;
 * - `executing-option`: an option that makes it run a command of someone's choosing (git-options.ts);
 * - `interpreter-code`: it runs code no rule can read: text for an interpreter (`python -c`,
 *   `node -e`), commands from its input (`| sh`, `sh <<<...`, `. <(...)`), or an option's value.
 */
export type UnwrapHazard = 'unparsable' | 'executing-option' | 'interpreter-code'

export interface Unwrapped {
  /** It needs an allow rule of its own, besides the ones for what it runs. */
  self: boolean
  commands: Argv[]
  scripts: Script[]
  writes: FileWrite[]
  hazards: UnwrapHazard[]
}

export const NOTHING: Unwrapped = {commands: [], hazards: [], scripts: [], self: true, writes: []}
export const UNREADABLE: Unwrapped = {...NOTHING, hazards: ['unparsable']}
export const INTERPRETED: Unwrapped = {...NOTHING, hazards: ['interpreter-code']}

export function script(text: string, shape: string): Script {
  return {literal: !hasWildcard(shape), text}
}

export function tail(args: Argv, from: number): Argv {
  return slice(args, from, args.words.length)
}

export function slice(args: Argv, from: number, to: number): Argv {
  return {shapes: args.shapes.slice(from, to), words: args.words.slice(from, to)}
}

/** `/dev/stdin`, `/dev/fd/0`, `/proc/self/fd/0`, a process substitution, `-`, or a name only known when it runs: a script read from somewhere no rule sees. */
export function unseenScript(word: string, shape: string): boolean {
  return word === '-' || hasWildcard(shape) || /^\/(?:dev\/(?:stdin|fd\/)|proc\/[^/]+\/fd\/)/.test(word)
}

/** The shells whose `-c` is read as bash reads it. */
export const SHELLS: ReadonlySet<string> = new Set(['ash', 'bash', 'dash', 'ksh', 'mksh', 'sh', 'zsh'])
