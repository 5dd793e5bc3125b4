import {NPX, runsAfterOptions} from './argv-wrappers.js'
import {type Argv, INTERPRETED, NOTHING, type Script, script, tail, type Unwrapped, unseenScript} from './unwrapped.js'

/**
 * Programs that run code handed to them as text, which no rule can read (`interpreter-code`:
 * asked for, never allowed by a rule, and taken as possibly matching every deny rule of exec):
 * - an interpreter's inline code or input: `python -c`, `node -e`/`-p`, `node --import=data:...`,
 *   `perl -e`, `perl -M'X;system ...'`, `ruby -e`, `php -r`, `lua -e`, `bun -e`, an interactive
 *   `-i`, and the interpreter with no script, or a script `-`, `/dev/stdin` or `<(...)`, reading
 *   its program from its input (`curl x | python3`); `awk` programs that run commands
 *   (`system(...)`, pipes);
 * - options whose value is code or a command: `npm --node-options`, `--script-shell`, `--shell`,
 *   `--call`, `--onload-script`, `--editor`, `--browser`, `--viewer`, `--git`, `--init-module`,
 *   and `--userconfig`, `--globalconfig`, `--prefix`/`-C` (another config or package runs its
 *   own), `npm explore`; `make --eval`; `tar --to-command`, `--checkpoint-action`, `--info-script`
 *   (`-F`), `--new-volume-script`, `--use-compress-program` (`-I`), `--rsh-command`; `rsync -e`;
 *   `sort --compress-program`; `zip -TT`/`--unzip-command`.
 * `npm exec` (and `npm x`) is `npx` (argv-wrappers.ts). `make -f`, `-C`, `-I` (another makefile)
 * and `NAME=value` operands (which override what its recipes run; the values are read as shell
 * code for deny rules) are an `executing-option`, as git's are (git-options.ts).
 */
export function interpreterRuns(program: string, args: Argv): Unwrapped | undefined {
  const spec = INTERPRETERS[/^(?:python|pypy)[\d.]*$/.test(program) ? 'python' : program]
  if (spec) return interpreted(spec, args)
  if (program === 'npm') return npm(args)
  if (program === 'make' || program === 'gmake') return make(args)
  if (AWKS.has(program)) return awk(args)
  const options = CODE_OPTIONS[program]
  return options && args.words.some((word) => isCodeOption(word, options)) ? INTERPRETED : undefined
}

interface Interpreter {
  /** Letters and long names whose value is code, or that read code from the input (`-i`). */
  code: string
  long?: readonly string[]
  /** Letters and long names after which it runs no code (`--version`, a syntax check). */
  idle?: string
  idleLong?: readonly string[]
  /** Letters that take a value: the rest of the word, or the next word. */
  value?: string
  /** Letters whose value, if any, is the rest of the word. */
  joined?: string
  /** Letters whose value, if any, is the digits after them (`perl -l0e`, `-00`). */
  digits?: string
  /** Long names that take the next word as their value when not given with `=`. */
  longValue?: readonly string[]
  /** Letters that name what runs instead of a script (`python -m pytest`). */
  runs?: string
  /** Options whose value is a module, which is inline code when it matches `inline`. */
  modules?: {letters?: string; long?: readonly string[]; inline: RegExp}
  /** Without a script it reads its program from its input. */
  stdin: boolean
}

const VERSION = ['help', 'version']
const INLINE_URL = /^(?:data|https?):/i

const NODE: Interpreter = {
  code: 'epi',
  idle: 'chv',
  idleLong: [...VERSION, 'check', 'v8-options'],
  long: ['eval', 'interactive', 'print'],
  longValue: ['conditions', 'env-file', 'experimental-loader', 'import', 'loader', 'require', 'title'],
  modules: {inline: INLINE_URL, long: ['experimental-loader', 'import', 'loader']},
  stdin: true,
  value: 'Cr',
}

const INTERPRETERS: Record<string, Interpreter> = {
  bun: {code: 'ep', idle: 'hv', idleLong: VERSION, long: ['eval', 'print'], stdin: false},
  lua: {code: 'ei', idle: 'v', stdin: true, value: 'l'},
  node: NODE,
  nodejs: NODE,
  perl: {
    code: 'eE',
    digits: '0l',
    idle: 'cvVh',
    idleLong: VERSION,
    joined: 'CDdFIix',
    modules: {inline: /[^\w:=,.-]/, letters: 'Mm'},
    stdin: true,
    value: 'Mm',
  },
  php: {code: 'aBERrF', idle: 'hilmv', idleLong: VERSION, runs: 'f', stdin: true, value: 'cdtz'},
  python: {
    code: 'ci',
    idle: 'hV?',
    idleLong: VERSION,
    longValue: ['check-hash-based-pycs'],
    runs: 'm',
    stdin: true,
    value: 'WXQ',
  },
  ruby: {code: 'e', digits: '0T', idle: 'chv', idleLong: VERSION, joined: 'FKWx', stdin: true, value: 'CEIr'},
}

function interpreted(spec: Interpreter, args: Argv): Unwrapped | undefined {
  const {shapes, words} = args
  // A syntax check or `--version` runs nothing, unless code is given too (`perl -ce 'BEGIN {...}'`).
  let idle = false
  for (let i = 0; i < words.length; i++) {
    const word = words[i]
    if (word === '--') return operand(i + 1)
    if (word.startsWith('--')) {
      const [name, value] = splitLong(word)
      if (spec.long?.includes(name)) return INTERPRETED
      idle ||= spec.idleLong?.includes(name) ?? false
      const takesNext = value === undefined && spec.longValue?.includes(name)
      const given = takesNext ? words[i + 1] : value
      if (spec.modules?.long?.includes(name) && given !== undefined && spec.modules.inline.test(given))
        return INTERPRETED
      if (takesNext) i++
      continue
    }

    if (word.length < 2 || word[0] !== '-') return operand(i)
    for (let j = 1; j < word.length; j++) {
      const letter = word[j]
      if (spec.code.includes(letter)) return INTERPRETED
      if (spec.runs?.includes(letter)) return undefined
      idle ||= spec.idle?.includes(letter) ?? false
      if (spec.value?.includes(letter)) {
        const given = j + 1 < word.length ? word.slice(j + 1) : words[++i]
        if (spec.modules?.letters?.includes(letter) && given !== undefined && spec.modules.inline.test(given))
          return INTERPRETED
        break
      }

      if (spec.joined?.includes(letter)) break
      if (spec.digits?.includes(letter)) j += /^(?:x[\dA-Fa-f]*|\d*)/.exec(word.slice(j + 1))![0].length
    }
  }

  return operand(words.length)

  /** The script operand at `at`: none means the program comes from the input. */
  function operand(at: number): Unwrapped | undefined {
    if (idle) return undefined
    if (at >= words.length) return spec.stdin ? INTERPRETED : undefined
    return unseenScript(words[at], shapes[at]) ? INTERPRETED : undefined
  }
}

function splitLong(word: string): [string, string | undefined] {
  const equals = word.indexOf('=')
  return equals === -1 ? [word.slice(2), undefined] : [word.slice(2, equals), word.slice(equals + 1)]
}

const NPM_CODE_OPTIONS = [
  'browser',
  'call',
  'editor',
  'git',
  'globalconfig',
  'init-module',
  'node-options',
  'onload-script',
  'prefix',
  'script-shell',
  'shell',
  'userconfig',
  'viewer',
]

/**
 * npm reads its options anywhere before `--`. `exec` (`exe`, `x`) runs a command as npx does and
 * `explore` runs shell code; as the value of an option may stand before it, the first such word
 * anywhere is taken for the subcommand (a package or script of that name then asks for more).
 */
function npm(args: Argv): Unwrapped | undefined {
  const end = args.words.includes('--') ? args.words.indexOf('--') : args.words.length
  const options = args.words.slice(0, end)
  if (options.some((word) => word === '-C' || (word.startsWith('--') && NPM_CODE_OPTIONS.includes(splitLong(word)[0]))))
    return INTERPRETED
  const at = options.findIndex((word) => NPM_EXEC.has(word) || NPM_EXPLORE.test(word))
  if (at === -1) return undefined
  return NPM_EXEC.has(options[at]) ? runsAfterOptions(NPX, tail(args, at + 1)) : INTERPRETED
}

const NPM_EXEC = new Set(['exe', 'exec', 'x'])
const NPM_EXPLORE = /^exp(?:l(?:o(?:re?)?)?)?$/

const MAKE_OTHER_MAKEFILE = /^-(?:[CfI]|-(?:directory|file|include-dir|makefile)(?:=|$))/
const ASSIGNMENT_OPERAND = /^[^-=][^=]*=/

function make(args: Argv): Unwrapped | undefined {
  if (args.words.some((word) => /^(?:-E|--eval(?:=|$))/.test(word))) return INTERPRETED
  const scripts: Script[] = []
  let executing = false
  for (const [i, word] of args.words.entries()) {
    if (MAKE_OTHER_MAKEFILE.test(word)) executing = true
    else if (ASSIGNMENT_OPERAND.test(word)) {
      executing = true
      scripts.push(script(word.slice(word.indexOf('=') + 1), args.shapes[i]))
    }
  }

  return executing ? {...NOTHING, hazards: ['executing-option'], scripts} : undefined
}

const AWKS = new Set(['awk', 'busybox-awk', 'gawk', 'mawk', 'nawk'])
/** What lets an awk program run a command: `system(...)`, `print | "cmd"`, `"cmd" | getline`. */
const AWK_RUNS = /system|\|/

/** `awk [options] 'program' [file...]`, or its program in `-e`/`--source`; from a file (`-f`) it is a script of its own. */
function awk(args: Argv): Unwrapped | undefined {
  const {words} = args
  for (let i = 0; i < words.length; i++) {
    const word = words[i]
    if (word === '--') return AWK_RUNS.test(words[i + 1] ?? '') ? INTERPRETED : undefined
    if (/^-[ef]$|^--(?:source|file)$/.test(word)) {
      if (/^-e$|^--source$/.test(word) && AWK_RUNS.test(words[i + 1] ?? '')) return INTERPRETED
      if (/^-f$|^--file$/.test(word)) return undefined
      i++
    } else if (/^-[FvEil]$/.test(word)) {
      i++
    } else if (!word.startsWith('-') || word === '-') {
      return AWK_RUNS.test(word) ? INTERPRETED : undefined
    } else if (/^--source=|^-e./.test(word) && AWK_RUNS.test(word)) {
      return INTERPRETED
    }
  }

  return undefined
}

/** Per program, the long options and letters whose value is a command it runs. */
const CODE_OPTIONS: Record<string, {long: readonly string[]; short: string; words?: readonly string[]}> = {
  rsync: {long: ['rsh'], short: 'e'},
  sort: {long: ['compress-program'], short: ''},
  tar: {
    long: [
      'checkpoint-action',
      'info-script',
      'new-volume-script',
      'rsh-command',
      'to-command',
      'use-compress-program',
    ],
    short: 'FI',
  },
  zip: {long: ['unzip-command'], short: '', words: ['-TT']},
}

function isCodeOption(
  word: string,
  options: {long: readonly string[]; short: string; words?: readonly string[]},
): boolean {
  if (options.words?.includes(word)) return true
  // GNU getopt takes any unambiguous abbreviation (`--to-com`): a prefix counts.
  if (word.startsWith('--')) return word.length > 3 && options.long.some((name) => name.startsWith(splitLong(word)[0]))
  return /^-[^-]/.test(word) && [...word.slice(1)].some((letter) => options.short.includes(letter))
}
