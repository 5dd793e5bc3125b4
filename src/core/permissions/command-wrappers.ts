import {type OptionSpec, readOptions} from './command-options.js'
import {operands} from './file-writers.js'
import {gitRuns} from './git-options.js'
import {parseShellCommand} from './shell-command.js'
import {hasWildcard, literalShape} from './word-shape.js'

/**
 * Commands that run other commands: `sudo rm -rf /` is `rm -rf /` to a deny rule, and
 * `timeout 60 npm test` is `npm test` to an allow rule. For each, what it runs:
 * - argument vectors after its options: `env`, `timeout`, `nice`, `nohup`, `stdbuf`, `ionice`,
 *   `setsid`, `command`, `builtin`, `exec`, `time`, `xargs` (which adds arguments read from
 *   its input: the command gets a last word `*`, so `exec(git status)` does not cover
 *   `xargs git status` but `exec(git status*)` does), `sudo`, `doas`, `find -exec ... ;`/`+`
 *   (also `-execdir`, `-ok`, `-okdir`), `git bisect run`;
 * - shell code: `sh -c`/`bash -c` (and dash, zsh, ksh, ash, mksh), `eval` (its arguments
 *   joined), `trap`, `alias`, and git's (git-options.ts).
 * Shell code that the outer shell expands first (`bash -c "$X"`) is not known before it runs.
 *
 * `self` says the command needs an allow rule of its own besides the ones for what it runs:
 * `sudo` and `doas` change who runs it, `env -C` where (another directory has other scripts
 * and config), `time -o` writes a file, `find` and `git` do work of their own; the rest only change when, how long or
 * with what environment variables (a wrapper with nothing to run, like `env` or
 * `command -v git`, is a command of its own).
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

export interface Unwrapped {
  self: boolean
  commands: Argv[]
  scripts: Script[]
  writes: FileWrite[]
  /** `unparsable`: where the command starts cannot be told; `executing-option`: see git-options.ts. */
  hazards: Array<'unparsable' | 'executing-option'>
}

/** What the program (a bare name: the caller takes a path's basename) runs; undefined when it is not a wrapper. */
export function unwrapCommand(program: string, args: Argv): Unwrapped | undefined {
  if (SHELLS.has(program)) return shell(args)
  const wrapper = ARGV_WRAPPERS[program]
  return wrapper ? runsAfterOptions(wrapper, args) : CODE_RUNNERS[program]?.(args)
}

const NOTHING: Unwrapped = {commands: [], hazards: [], scripts: [], self: true, writes: []}
const UNREADABLE: Unwrapped = {...NOTHING, hazards: ['unparsable']}

interface ArgvWrapper {
  options: OptionSpec
  /** Options after which it runs nothing (`command -v git` only looks git up). */
  idle?: readonly string[]
  /** It changes who runs the command, so it needs an allow rule of its own. */
  self?: boolean
  /** Options that make it need an allow rule of its own: another directory has other scripts and config (`env -C /tmp/x npm test`). */
  own?: readonly string[]
  /** The command, from the words after the options; undefined when it cannot be told. */
  command?: (rest: Argv, seen: ReadonlyMap<string, string | true>) => Argv | undefined
  /** Files its options name for writing. */
  writes?: (rest: Argv, seen: ReadonlyMap<string, string | true>) => FileWrite[]
}

const SUDO_OPTIONS: OptionSpec = {
  long: ['askpass', 'background', 'bell', 'edit', 'help', 'list', 'login', 'no-update', 'non-interactive', 'preserve-env', 'preserve-groups', 'remove-timestamp', 'reset-timestamp', 'set-home', 'shell', 'stdin', 'validate', 'version'],
  longValue: ['chdir', 'chroot', 'close-from', 'command-timeout', 'group', 'host', 'other-user', 'prompt', 'role', 'type', 'user'],
  short: 'ABbEeHiKklNnPSsVv',
  shortOptional: 'h',
  shortValue: 'CDgpRrTtUu',
}

const ARGV_WRAPPERS: Record<string, ArgvWrapper> = {
  builtin: {options: {}},
  command: {idle: ['v', 'V'], options: {short: 'pvV'}},
  doas: {idle: ['C', 'L'], options: {short: 'Lns', shortValue: 'Cu'}, self: true},
  env: {
    command: envCommand,
    own: ['C', 'chdir'],
    options: {
      long: ['block-signal', 'debug', 'default-signal', 'help', 'ignore-environment', 'ignore-signal', 'list-signal-handling', 'null', 'version'],
      longValue: ['chdir', 'split-string', 'unset'],
      short: '0iv',
      shortValue: 'CSu',
    },
  },
  exec: {options: {short: 'cl', shortValue: 'a'}},
  ionice: {idle: ['p', 'P', 'u', 'pid', 'pgid', 'uid'], options: {long: ['help', 'ignore', 'version'], longValue: ['class', 'classdata', 'pgid', 'pid', 'uid'], short: 't', shortValue: 'cnPpu'}},
  nice: {options: {long: ['help', 'version'], longValue: ['adjustment'], numeric: true, shortValue: 'n'}},
  nohup: {options: {long: ['help', 'version']}},
  setsid: {options: {long: ['ctty', 'fork', 'help', 'version', 'wait'], short: 'cfw'}},
  stdbuf: {options: {long: ['help', 'version'], longValue: ['error', 'input', 'output'], shortValue: 'eio'}},
  sudo: {
    idle: ['e', 'edit', 'h', 'help', 'K', 'l', 'list', 'remove-timestamp', 'V', 'v', 'validate', 'version'],
    options: SUDO_OPTIONS,
    self: true,
    writes: (rest, seen) => (seen.has('e') || seen.has('edit') ? operands(rest) : []),
  },
  time: {
    options: {long: ['append', 'help', 'portability', 'quiet', 'verbose', 'version'], longValue: ['format', 'output'], short: 'apqv', shortValue: 'fo'},
    writes(_rest, seen) {
      const file = seen.get('o') ?? seen.get('output')
      return typeof file === 'string' ? [{shape: literalShape(file), target: file}] : []
    },
  },
  timeout: {options: {long: ['foreground', 'help', 'preserve-status', 'verbose', 'version'], longValue: ['kill-after', 'signal'], operands: 1, short: 'v', shortValue: 'ks'}},
  xargs: {
    command: xargsCommand,
    options: {
      long: ['eof', 'exit', 'help', 'interactive', 'max-lines', 'no-run-if-empty', 'null', 'open-tty', 'replace', 'show-limits', 'verbose', 'version'],
      longValue: ['arg-file', 'delimiter', 'max-args', 'max-chars', 'max-procs', 'process-slot-var'],
      short: '0oprtx',
      shortOptional: 'eil',
      shortValue: 'adEILnPs',
    },
  },
}

const SHELLS = new Set(['ash', 'bash', 'dash', 'ksh', 'mksh', 'sh', 'zsh'])
const SHELL_LONG_VALUE = new Set(['--init-file', '--rcfile'])
const FIND_RUNS = new Set(['-exec', '-execdir', '-ok', '-okdir'])
const FIND_WRITES = new Set(['-fls', '-fprint', '-fprint0', '-fprintf'])

const CODE_RUNNERS: Record<string, (args: Argv) => Unwrapped | undefined> = {
  alias: (args) => ({...NOTHING, scripts: args.words.flatMap((word, i) => (word.includes('=') && !word.startsWith('-') ? [script(word.slice(word.indexOf('=') + 1), args.shapes[i])] : []))}),
  eval: (args) => (args.words.length > 0 ? {...NOTHING, scripts: [{literal: !args.shapes.some(hasWildcard), text: args.words.join(' ')}], self: false} : NOTHING),
  find,
  git: gitRuns,
  sudoedit: (args) => ({...NOTHING, writes: operands(args)}),
  trap(args) {
    const at = args.words[0] === '--' ? 1 : 0
    const code = args.words[at]
    const runs = code !== undefined && at + 1 < args.words.length && !(at === 0 && code.startsWith('-'))
    return runs ? {...NOTHING, scripts: [script(code, args.shapes[at])]} : NOTHING
  },
}

function runsAfterOptions(wrapper: ArgvWrapper, args: Argv): Unwrapped {
  const options = readOptions(args.words, wrapper.options)
  if (options.unknown) return UNREADABLE
  const {seen} = options
  const rest = tail(args, options.rest)
  const writes = wrapper.writes?.(rest, seen) ?? []
  if (wrapper.idle?.some((name) => seen.has(name))) return {...NOTHING, writes}
  const command = wrapper.command ? wrapper.command(rest, seen) : rest
  if (command === undefined) return UNREADABLE
  if (command.words.length === 0) return {...NOTHING, writes}
  const self = wrapper.self ?? (writes.length > 0 || wrapper.own?.some((name) => seen.has(name))) ?? false
  return {...NOTHING, commands: [command], self, writes}
}

/** `env -` is `env -i`; `env -S 'a b'` splits its string into words (a second command or a redirection in it cannot be read). */
function envCommand(rest: Argv, seen: ReadonlyMap<string, string | true>): Argv | undefined {
  const command = rest.words[0] === '-' ? tail(rest, 1) : rest
  const split = seen.get('S') ?? seen.get('split-string')
  if (typeof split !== 'string') return command
  const parsed = parseShellCommand(split)
  const [first] = parsed.commands
  if (parsed.commands.length !== 1 || parsed.hazards.length > 0 || first.redirections.length > 0) return undefined
  return {shapes: [...first.shapes, ...command.shapes], words: [...first.words, ...command.words]}
}

/** What xargs runs (echo without a command), with a last word `*` for the arguments it reads, unless it substitutes them (`-I`). */
function xargsCommand(rest: Argv, seen: ReadonlyMap<string, string | true>): Argv {
  const command = rest.words.length > 0 ? rest : {shapes: ['echo'], words: ['echo']}
  if (['I', 'i', 'replace'].some((name) => seen.has(name))) return command
  return {shapes: [...command.shapes, '*'], words: [...command.words, '*']}
}

function shell(args: Argv): Unwrapped {
  let command = false
  let i = 0
  for (; i < args.words.length; i++) {
    const word = args.words[i]
    if (word === '--' || word === '-') {
      i++
      break
    }

    if (word.startsWith('--')) {
      if (SHELL_LONG_VALUE.has(word)) i++
    } else if (/^[+-]./.test(word)) {
      for (const letter of word.slice(1)) {
        if (letter === 'c') command = true
        else if (letter === 'o' || letter === 'O') i++
      }
    } else {
      break
    }
  }

  // Without -c it runs a script file or its input: nothing here to read.
  if (!command || i >= args.words.length) return NOTHING
  return {...NOTHING, scripts: [script(args.words[i], args.shapes[i])], self: false}
}

function find(args: Argv): Unwrapped {
  const commands: Argv[] = []
  const writes: FileWrite[] = []
  for (let i = 0; i < args.words.length; i++) {
    const word = args.words[i]
    if (FIND_WRITES.has(word) && i + 1 < args.words.length) {
      writes.push({shape: args.shapes[i + 1], target: args.words[++i]})
    } else if (FIND_RUNS.has(word)) {
      let end = i + 1
      while (end < args.words.length && args.words[end] !== ';' && args.words[end] !== '+') end++
      if (end === args.words.length) return {...NOTHING, commands, hazards: ['unparsable'], writes}
      if (end > i + 1) commands.push(slice(args, i + 1, end))
      i = end
    }
  }

  return {...NOTHING, commands, writes}
}

function script(text: string, shape: string): Script {
  return {literal: !hasWildcard(shape), text}
}

function tail(args: Argv, from: number): Argv {
  return slice(args, from, args.words.length)
}

function slice(args: Argv, from: number, to: number): Argv {
  return {shapes: args.shapes.slice(from, to), words: args.words.slice(from, to)}
}
