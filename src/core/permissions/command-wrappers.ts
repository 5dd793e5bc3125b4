import {unwrapArgv} from './argv-wrappers.js'
import {operands} from './file-writers.js'
import {gitRuns} from './git-options.js'
import {interpreterRuns} from './interpreters.js'
import {
  type Argv,
  type FileWrite,
  INTERPRETED,
  NOTHING,
  script,
  SHELLS,
  slice,
  type Unwrapped,
  unseenScript,
} from './unwrapped.js'
import {hasWildcard} from './word-shape.js'

export type {Argv, FileWrite, Script, Unwrapped} from './unwrapped.js'

/**
 * Commands that run other commands: `sudo rm -rf /` is `rm -rf /` to a deny rule, and
 * `timeout 60 npm test` is `npm test` to an allow rule. For each, what it runs:
 * - argument vectors after its options: the wrappers of argv-wrappers.ts, `find -exec ... ;`/`+`
 *   (also `-execdir`, `-ok`, `-okdir`), `git bisect run`;
 * - shell code: `sh -c`/`bash -c` (and dash, zsh, ksh, ash, mksh), `eval` (its arguments
 *   joined), `trap`, `alias`, and git's (git-options.ts).
 * Shell code that the outer shell expands first (`bash -c "$X"`) is not known before it runs.
 * Code no rule can read is `interpreter-code` (unwrapped.ts): a shell (or `.`, `source`) that
 * reads its commands from its input or from a file only known when it runs (`| sh`, `bash -s`,
 * `sh <<<...`, `. <(...)`, `bash /dev/stdin`), and the interpreters of interpreters.ts.
 */

/** What the program (a bare name: the caller takes a path's basename) runs; undefined when it runs nothing but itself. */
export function unwrapCommand(program: string, args: Argv): Unwrapped | undefined {
  if (SHELLS.has(program)) return shell(args)
  return unwrapArgv(program, args) ?? CODE_RUNNERS[program]?.(args) ?? interpreterRuns(program, args)
}

const SHELL_LONG_VALUE = new Set(['--init-file', '--rcfile'])
const SHELL_IDLE = new Set(['--help', '--version'])
const FIND_RUNS = new Set(['-exec', '-execdir', '-ok', '-okdir'])
const FIND_WRITES = new Set(['-fls', '-fprint', '-fprint0', '-fprintf'])

const CODE_RUNNERS: Record<string, (args: Argv) => Unwrapped | undefined> = {
  '.': sourced,
  alias: (args) => ({
    ...NOTHING,
    scripts: args.words.flatMap((word, i) =>
      word.includes('=') && !word.startsWith('-') ? [script(word.slice(word.indexOf('=') + 1), args.shapes[i])] : [],
    ),
  }),
  eval: (args) =>
    args.words.length > 0
      ? {...NOTHING, scripts: [{literal: !args.shapes.some(hasWildcard), text: args.words.join(' ')}], self: false}
      : NOTHING,
  find,
  git: gitRuns,
  source: sourced,
  sudoedit: (args) => ({...NOTHING, writes: operands(args)}),
  trap(args) {
    const at = args.words[0] === '--' ? 1 : 0
    const code = args.words[at]
    const runs = code !== undefined && at + 1 < args.words.length && !(at === 0 && code.startsWith('-'))
    return runs ? {...NOTHING, scripts: [script(code, args.shapes[at])]} : NOTHING
  },
}

function shell(args: Argv): Unwrapped {
  let command = false
  let stdin = false
  let i = 0
  for (; i < args.words.length; i++) {
    const word = args.words[i]
    if (word === '--' || word === '-') {
      i++
      break
    }

    if (SHELL_IDLE.has(word)) return NOTHING
    if (word.startsWith('--')) {
      if (SHELL_LONG_VALUE.has(word)) i++
    } else if (/^[+-]./.test(word)) {
      for (const letter of word.slice(1)) {
        if (letter === 'c') command = true
        else if (letter === 's' || letter === 'i') stdin = true
        else if (letter === 'o' || letter === 'O') i++
      }
    } else {
      break
    }
  }

  if (command)
    return i < args.words.length ? {...NOTHING, scripts: [script(args.words[i], args.shapes[i])], self: false} : NOTHING
  // Without -c it runs a script file (a program of its own) or, with none or -s, its input.
  if (stdin || i >= args.words.length || unseenScript(args.words[i], args.shapes[i])) return INTERPRETED
  return NOTHING
}

/** `. FILE` and `source FILE` run the file's commands here: one only known when it runs is code no rule reads. */
function sourced(args: Argv): Unwrapped | undefined {
  const at = args.words[0] === '--' ? 1 : 0
  return at < args.words.length && unseenScript(args.words[at], args.shapes[at]) ? INTERPRETED : undefined
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
