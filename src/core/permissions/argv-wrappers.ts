import {type OptionSpec, type ReadOptions, readOptions} from './command-options.js'
import {operands} from './file-writers.js'
import {parseShellCommand} from './shell-command.js'
import {
  type Argv,
  type FileWrite,
  INTERPRETED,
  NOTHING,
  type Script,
  script,
  SHELLS,
  tail,
  UNREADABLE,
  type Unwrapped,
} from './unwrapped.js'
import {hasWildcard, literalShape} from './word-shape.js'

/**
 * Commands that run a command given after their options (`timeout 60 npm test`, `sudo rm -rf /`,
 * `flock F -c 'rm x'`), read getopt-style (command-options.ts): an option a table does not know
 * makes where the command starts unknown (`unparsable`), never guessed. Each says what it runs:
 * - the words after its options: `env`, `timeout`, `nice`, `nohup`, `stdbuf`, `ionice`, `setsid`,
 *   `command`, `builtin`, `exec`, `time`, `xargs` (which adds arguments read from its input: the
 *   command gets a last word `*`, so `exec(git status)` does not cover `xargs git status` but
 *   `exec(git status*)` does), `sudo`, `doas`, `taskset`, `chrt`, `prlimit`, `flock`, `strace`,
 *   `ltrace`, `setpriv`, `unshare`, `nsenter`, `chroot`, `runuser -u`, `systemd-run`, `busybox`,
 *   `npx` (and `npm exec`, interpreters.ts), `watch -x`;
 * - shell code: `flock ... -c`, `su -c`/`runuser -c`, `script -c`, `npx -c`, `watch` (its words
 *   joined, as it runs them with `sh -c`);
 * - a shell reading its commands from its input (`interpreter-code`): `su`, `runuser`, `script`,
 *   `unshare`, `nsenter`, `chroot`, `sudo -s`/`-i`, `doas -s` and `systemd-run -S` with nothing to
 *   run, and `su -s <not a shell>`; an option whose value is code: `strace -o '|cmd'`,
 *   `systemd-run -p ExecStartPre=...`.
 *
 * `self` says the command needs an allow rule of its own besides the ones for what it runs:
 * the ones that change who runs it (`sudo`, `doas`, `su`, `runuser`, `setpriv`, `unshare`,
 * `nsenter`, `systemd-run`), where (`chroot`, `env -C`: another root or directory has other
 * programs, scripts and config), what runs (`busybox`'s own applets, `npx`, which may fetch a
 * package), or that write a file (`time -o`, `strace -o`, `script`'s log). The rest only change
 * when, how long, on which CPU or with what limits (a wrapper with nothing to run, like `env`
 * or `command -v git`, is a command of its own).
 */
export function unwrapArgv(program: string, args: Argv): Unwrapped | undefined {
  if (program === 'su' || program === 'runuser') return su(program, args)
  if (program === 'script') return scriptCommand(args)
  const wrapper = ARGV_WRAPPERS[program]
  return wrapper && runsAfterOptions(wrapper, args)
}

type Seen = ReadonlyMap<string, string | true>

interface ArgvWrapper {
  options: OptionSpec
  /** Options after which it runs nothing (`command -v git` only looks git up). */
  idle?: readonly string[]
  self?: boolean
  /** Options that make it need an allow rule of its own (`env -C /tmp/x npm test`). */
  own?: readonly string[]
  /** What it runs, from the words after the options (default: those words); undefined when it cannot be told. */
  runs?: (rest: Argv, options: ReadOptions, args: Argv) => Argv | Script | undefined
  /** Whether, with nothing to run, it starts a shell that reads its commands from its input. */
  shell?: (seen: Seen) => boolean
  /** Whether an option's value is code no rule reads (the words are its options). */
  code?: (seen: Seen, words: readonly string[]) => boolean
  /** Files its options name for writing. */
  writes?: (rest: Argv, seen: Seen) => FileWrite[]
}

const ALWAYS = () => true
const HELP = ['h', 'help', 'V', 'version']

// Option tables: each list of option names on one line, as a program's manual lists them.
// prettier-ignore
const SUDO_OPTIONS: OptionSpec = {
  long: ['askpass', 'background', 'bell', 'edit', 'help', 'list', 'login', 'no-update', 'non-interactive', 'preserve-env', 'preserve-groups', 'remove-timestamp', 'reset-timestamp', 'set-home', 'shell', 'stdin', 'validate', 'version'],
  longValue: ['chdir', 'chroot', 'close-from', 'command-timeout', 'group', 'host', 'other-user', 'prompt', 'role', 'type', 'user'],
  short: 'ABbEeHiKklNnPSsVv',
  shortOptional: 'h',
  shortValue: 'CDgpRrTtUu',
}

// Option tables: each list of option names on one line, as a program's manual lists them.
// prettier-ignore
const ARGV_WRAPPERS: Record<string, ArgvWrapper> = {
  builtin: {options: {}},
  busybox: {idle: ['help', 'install', 'list', 'list-full'], options: {long: ['help', 'install', 'list', 'list-full']}, self: true},
  chroot: {idle: ['help', 'version'], options: {long: ['help', 'skip-chdir', 'version'], longValue: ['groups', 'userspec'], operands: 1}, self: true, shell: ALWAYS},
  chrt: {
    idle: ['m', 'max', 'p', 'pid', ...HELP],
    options: {
      long: ['all-tasks', 'batch', 'deadline', 'ext', 'fifo', 'help', 'idle', 'max', 'other', 'pid', 'reset-on-fork', 'rr', 'verbose', 'version'],
      longValue: ['sched-deadline', 'sched-period', 'sched-runtime'],
      operands: 1,
      short: 'abdefhimopRrvV',
      shortValue: 'DPT',
    },
  },
  command: {idle: ['v', 'V'], options: {short: 'pvV'}},
  doas: {idle: ['C', 'L'], options: {short: 'Lns', shortValue: 'aCu'}, self: true, shell: (seen) => seen.has('s')},
  env: {
    own: ['C', 'chdir'],
    options: {
      long: ['block-signal', 'debug', 'default-signal', 'help', 'ignore-environment', 'ignore-signal', 'list-signal-handling', 'null', 'version'],
      longValue: ['chdir', 'split-string', 'unset'],
      short: '0iv',
      shortValue: 'CSu',
    },
    runs: envCommand,
  },
  exec: {options: {short: 'cl', shortValue: 'a'}},
  flock: {
    idle: HELP,
    options: {
      long: ['close', 'exclusive', 'help', 'nb', 'no-fork', 'nonblock', 'nonblocking', 'shared', 'unlock', 'verbose', 'version'],
      longValue: ['conflict-exit-code', 'timeout', 'wait'],
      operands: 1,
      short: 'eFhnosuxV',
      shortValue: 'Ew',
    },
    // `flock FILE -c CMD`: after the lock file, -c and one word of shell code.
    runs: (rest) => (rest.words[0] === '-c' || rest.words[0] === '--command' ? (rest.words.length === 2 ? script(rest.words[1], rest.shapes[1]) : undefined) : rest),
  },
  ionice: {idle: ['p', 'P', 'u', 'pid', 'pgid', 'uid'], options: {long: ['help', 'ignore', 'version'], longValue: ['class', 'classdata', 'pgid', 'pid', 'uid'], short: 't', shortValue: 'cnPpu'}},
  ltrace: {
    idle: ['h', 'help', 'V', 'version'],
    options: {long: ['demangle', 'help', 'no-signals', 'version'], longValue: ['align', 'indent', 'library', 'output', 'where'], short: 'bcCfhiLrStTV', shortValue: 'aAeDFlnopsuwx'},
    writes: (_rest, seen) => valueFile(seen, 'o', 'output'),
  },
  nice: {options: {long: ['help', 'version'], longValue: ['adjustment'], numeric: true, shortValue: 'n'}},
  nohup: {options: {long: ['help', 'version']}},
  npx: {
    options: {long: ['include-workspace-root', 'no', 'workspaces', 'yes'], longValue: ['call', 'package', 'workspace'], short: 'y', shortValue: 'cpw'},
    runs: (rest, options, args) => valueScript(args, options, 'c', 'call') ?? rest,
    self: true,
  },
  nsenter: {
    idle: HELP,
    options: {
      long: ['all', 'cgroup', 'env', 'follow-context', 'help', 'ipc', 'join-cgroup', 'keep-caps', 'mount', 'net', 'no-fork', 'pid', 'preserve-credentials', 'root', 'time', 'user', 'uts', 'version', 'wd'],
      longValue: ['setgid', 'setuid', 'target', 'user-parent', 'wdns'],
      short: 'acehFVZ',
      shortOptional: 'CimnprTuUw',
      shortValue: 'GStW',
    },
    self: true,
    shell: ALWAYS,
  },
  prlimit: {
    idle: ['p', 'pid', ...HELP],
    options: {
      long: ['as', 'core', 'cpu', 'data', 'fsize', 'help', 'locks', 'memlock', 'msgqueue', 'nice', 'nofile', 'noheadings', 'nproc', 'raw', 'rss', 'rtprio', 'rttime', 'sigpending', 'stack', 'verbose', 'version'],
      longValue: ['output', 'pid'],
      short: 'hV',
      shortOptional: 'cdefilmnqrstuvxy',
      shortValue: 'op',
    },
  },
  setpriv: {
    idle: ['d', 'dump', ...HELP],
    options: {
      long: ['clear-groups', 'dump', 'help', 'init-groups', 'keep-groups', 'nnp', 'no-new-privs', 'reset-env', 'version'],
      longValue: ['ambient-caps', 'apparmor-profile', 'bounding-set', 'egid', 'euid', 'groups', 'inh-caps', 'landlock-access', 'landlock-rule', 'pdeathsig', 'regid', 'reuid', 'rgid', 'ruid', 'seccomp-filter', 'securebits', 'selinux-label'],
      short: 'dhV',
    },
    self: true,
  },
  setsid: {options: {long: ['ctty', 'fork', 'help', 'version', 'wait'], short: 'cfw'}},
  stdbuf: {options: {long: ['help', 'version'], longValue: ['error', 'input', 'output'], shortValue: 'eio'}},
  strace: {
    code: (seen) => /^[!|]/.test(String(seen.get('o') ?? seen.get('output') ?? '')),
    options: {
      long: ['always-show-pid', 'debug', 'failed-only', 'follow-forks', 'help', 'instruction-pointer', 'kill-on-exit', 'no-abbrev', 'output-separately', 'seccomp-bpf', 'successful-only', 'summary', 'summary-only', 'summary-wall-clock', 'version'],
      longValue: ['abbrev', 'argv0', 'attach', 'columns', 'const-print-style', 'decode-pids', 'detach-on', 'env', 'fault', 'inject', 'kvm', 'output', 'raw', 'read', 'signal', 'status', 'string-limit', 'summary-columns', 'summary-sort-by', 'summary-syscall-overhead', 'trace', 'trace-fds', 'trace-path', 'user', 'write'],
      short: 'cCdDfFhikNnqrtTvVwxyzZ',
      shortValue: 'abeEIoOpPsSuUX',
    },
    // `-o '|cmd'` and `-o '!cmd'` pipe the trace to a command instead.
    writes: (_rest, seen) => valueFile(seen, 'o', 'output').filter((file) => !/^[!|]/.test(file.target)),
  },
  sudo: {
    idle: ['e', 'edit', 'h', 'help', 'K', 'l', 'list', 'remove-timestamp', 'V', 'v', 'validate', 'version'],
    options: SUDO_OPTIONS,
    self: true,
    shell: (seen) => ['i', 'login', 's', 'shell'].some((name) => seen.has(name)),
    writes: (rest, seen) => (seen.has('e') || seen.has('edit') ? operands(rest) : []),
  },
  'systemd-run': {
    // A unit's properties can hold commands of their own (ExecStartPre=..., ExecStopPost=...).
    code: (_seen, words) => words.some((word) => /exec\w*=/i.test(word)),
    idle: ['h', 'help', 'version'],
    options: {
      long: ['collect', 'help', 'ignore-failure', 'no-ask-password', 'no-block', 'pipe', 'pty', 'quiet', 'remain-after-exit', 'same-dir', 'scope', 'send-sighup', 'shell', 'slice-inherit', 'system', 'user', 'version', 'wait'],
      longValue: ['background', 'description', 'expand-environment', 'gid', 'host', 'json', 'machine', 'nice', 'on-active', 'on-boot', 'on-calendar', 'on-startup', 'on-unit-active', 'on-unit-inactive', 'path-property', 'property', 'service-type', 'setenv', 'slice', 'socket-property', 'timer-property', 'uid', 'unit', 'working-directory'],
      short: 'dGhPqrSt',
      shortValue: 'EHMpu',
    },
    self: true,
    shell: (seen) => seen.has('S') || seen.has('shell'),
  },
  taskset: {idle: ['p', 'pid', ...HELP], options: {long: ['all-tasks', 'cpu-list', 'help', 'pid', 'version'], operands: 1, short: 'acphV'}},
  time: {
    options: {long: ['append', 'help', 'portability', 'quiet', 'verbose', 'version'], longValue: ['format', 'output'], short: 'apqv', shortValue: 'fo'},
    writes: (_rest, seen) => valueFile(seen, 'o', 'output'),
  },
  timeout: {options: {long: ['foreground', 'help', 'preserve-status', 'verbose', 'version'], longValue: ['kill-after', 'signal'], operands: 1, short: 'v', shortValue: 'ks'}},
  unshare: {
    idle: HELP,
    options: {
      long: ['cgroup', 'fork', 'help', 'ipc', 'keep-caps', 'kill-child', 'map-auto', 'map-current-user', 'map-root-user', 'mount', 'mount-binfmt', 'mount-proc', 'net', 'pid', 'time', 'user', 'uts', 'version'],
      longValue: ['boottime', 'load-interp', 'map-group', 'map-groups', 'map-user', 'map-users', 'monotonic', 'propagation', 'root', 'setgid', 'setgroups', 'setuid', 'wd'],
      short: 'cfhimnpCrTUuV',
      shortValue: 'GRSw',
    },
    self: true,
    shell: ALWAYS,
  },
  watch: {
    idle: ['h', 'help', 'v', 'version'],
    options: {
      long: ['beep', 'chgexit', 'color', 'differences', 'errexit', 'exec', 'help', 'no-color', 'no-rerun', 'no-title', 'no-wrap', 'precise', 'version'],
      longValue: ['equexit', 'interval'],
      short: 'bcCeghprtvwx',
      shortOptional: 'd',
      shortValue: 'nq',
    },
    runs: (rest, {seen}) => (seen.has('x') || seen.has('exec') || rest.words.length === 0 ? rest : {literal: !rest.shapes.some(hasWildcard), text: rest.words.join(' ')}),
  },
  xargs: {
    options: {
      long: ['eof', 'exit', 'help', 'interactive', 'max-lines', 'no-run-if-empty', 'null', 'open-tty', 'replace', 'show-limits', 'verbose', 'version'],
      longValue: ['arg-file', 'delimiter', 'max-args', 'max-chars', 'max-procs', 'process-slot-var'],
      short: '0oprtx',
      shortOptional: 'eil',
      shortValue: 'adEILnPs',
    },
    runs: xargsCommand,
  },
}

export function runsAfterOptions(wrapper: ArgvWrapper, args: Argv): Unwrapped {
  const options = readOptions(args.words, wrapper.options)
  if (options.unknown) return UNREADABLE
  const {seen} = options
  const rest = tail(args, options.rest)
  const writes = wrapper.writes?.(rest, seen) ?? []
  if (wrapper.idle?.some((name) => seen.has(name))) return {...NOTHING, writes}
  if (wrapper.code?.(seen, args.words.slice(0, options.rest))) return {...INTERPRETED, writes}
  const runs = wrapper.runs ? wrapper.runs(rest, options, args) : rest
  if (runs === undefined) return {...UNREADABLE, writes}
  const self = wrapper.self ?? (writes.length > 0 || wrapper.own?.some((name) => seen.has(name))) ?? false
  if ('text' in runs) return {...NOTHING, scripts: [runs], self, writes}
  if (runs.words.length === 0) return {...(wrapper.shell?.(seen) ? INTERPRETED : NOTHING), writes}
  return {...NOTHING, commands: [runs], self, writes}
}

/** The npx table entry, for `npm exec` (interpreters.ts). */
export const NPX = ARGV_WRAPPERS.npx

/** `env -` is `env -i`; `env -S 'a b'` splits its string into words (a second command or a redirection in it cannot be read). */
function envCommand(rest: Argv, {seen}: ReadOptions): Argv | undefined {
  const command = rest.words[0] === '-' ? tail(rest, 1) : rest
  const split = seen.get('S') ?? seen.get('split-string')
  if (typeof split !== 'string') return command
  const parsed = parseShellCommand(split)
  const [first] = parsed.commands
  if (parsed.commands.length !== 1 || parsed.hazards.length > 0 || first.redirections.length > 0) return undefined
  return {shapes: [...first.shapes, ...command.shapes], words: [...first.words, ...command.words]}
}

/** What xargs runs (echo without a command), with a last word `*` for the arguments it reads, unless it substitutes them (`-I`). */
function xargsCommand(rest: Argv, {seen}: ReadOptions): Argv {
  const command = rest.words.length > 0 ? rest : {shapes: ['echo'], words: ['echo']}
  if (['I', 'i', 'replace'].some((name) => seen.has(name))) return command
  return {shapes: [...command.shapes, '*'], words: [...command.words, '*']}
}

const SU_OPTIONS: OptionSpec = {
  long: ['fast', 'help', 'login', 'preserve-environment', 'pty', 'version'],
  longValue: ['command', 'group', 'session-command', 'shell', 'supp-group', 'user', 'whitelist-environment'],
  permute: true,
  short: 'fhlmpPV',
  shortValue: 'cgGsuw',
}

/**
 * `su [options] [-] [user [argument...]]` (options anywhere): `-c` is shell code for the user's
 * shell; without it the shell reads its commands from its input, and arguments after the user
 * go to that shell, as does `-s` with a program that is not a shell (`su -s /usr/bin/python`).
 * `runuser -u user command...` runs the command itself.
 */
function su(program: string, args: Argv): Unwrapped {
  const options = readOptions(args.words, SU_OPTIONS)
  if (options.unknown) return UNREADABLE
  const {seen} = options
  if (HELP.some((name) => seen.has(name))) return NOTHING
  if (seen.has('u') || seen.has('user')) {
    if (program !== 'runuser') return UNREADABLE
    const direct = readOptions(args.words, {...SU_OPTIONS, permute: false})
    return direct.unknown ? UNREADABLE : {...NOTHING, commands: [tail(args, direct.rest)]}
  }

  const shell = seen.get('s') ?? seen.get('shell')
  const code = valueScript(args, options, 'c', 'command') ?? valueScript(args, options, 'session-command')
  const shellArguments = options.operands.filter((i) => args.words[i] !== '-').length > 1
  if ((typeof shell === 'string' && !SHELLS.has(shell.slice(shell.lastIndexOf('/') + 1))) || shellArguments || !code)
    return INTERPRETED
  return {...NOTHING, scripts: [code]}
}

const SCRIPT_OPTIONS: OptionSpec = {
  long: ['append', 'flush', 'help', 'quiet', 'return', 'timing', 'version'],
  longValue: ['command', 'echo', 'log-in', 'log-io', 'log-out', 'log-timing', 'logging-format', 'output-limit'],
  permute: true,
  short: 'aefhqV',
  shortOptional: 't',
  shortValue: 'BcEImOoT',
}

/** `script [options] [file]` (options anywhere): `-c` is shell code; without it a shell reads its input. It logs to the file (`typescript` by default). */
function scriptCommand(args: Argv): Unwrapped {
  const options = readOptions(args.words, SCRIPT_OPTIONS)
  if (options.unknown) return UNREADABLE
  const {seen} = options
  if (HELP.some((name) => seen.has(name))) return NOTHING
  const logs = [
    ['B', 'log-io'],
    ['I', 'log-in'],
    ['O', 'log-out'],
    ['T', 'log-timing'],
    ['t', 'timing'],
  ].flatMap(([letter, name]) => valueFile(seen, letter, name))
  const files = options.operands.map((i) => ({shape: args.shapes[i], target: args.words[i]}))
  if (files.length === 0 && !['B', 'O', 'log-io', 'log-out'].some((name) => seen.has(name)))
    files.push({shape: 'typescript', target: 'typescript'})
  const writes = [...files, ...logs].filter((file) => file.target !== '/dev/null')
  const code = valueScript(args, options, 'c', 'command')
  return code ? {...NOTHING, scripts: [code], self: writes.length > 0, writes} : {...INTERPRETED, writes}
}

/** The value of an option (by any of its names) as shell code, literal when the word holding it is. */
function valueScript(args: Argv, {at, seen}: ReadOptions, ...names: string[]): Script | undefined {
  const name = names.find((candidate) => typeof seen.get(candidate) === 'string')
  return name === undefined ? undefined : script(seen.get(name) as string, args.shapes[at.get(name)!])
}

function valueFile(seen: Seen, ...names: string[]): FileWrite[] {
  const file = names.map((name) => seen.get(name)).find((value) => typeof value === 'string')
  return file === undefined ? [] : [{shape: literalShape(file), target: file}]
}
