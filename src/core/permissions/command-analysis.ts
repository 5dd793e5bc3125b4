import {codeVariable} from './code-variables.js'
import {unwrapCommand} from './command-wrappers.js'
import {writtenFiles} from './file-writers.js'
import {ASSIGNMENT, parseShellCommand, RESERVED_WORDS, type ShellHazard} from './shell-command.js'
import type {Argv, FileWrite} from './unwrapped.js'
import {hasWildcard, literalShape} from './word-shape.js'

/**
 * A command line as the permission rules judge it (rule-pattern.ts, policy.ts): the parts
 * that each need an allow rule, what a deny rule may find in each, the files it writes, and
 * what no allow pattern can vouch for.
 *
 * - Every simple command is a part, also the ones inside `$(...)` and backticks (a
 *   substitution is fine when what it runs is allowed), after leading reserved words
 *   (`if`, `!`, `{`, `do`, ...).
 * - A command that runs another (command-wrappers.ts) is unwrapped, up to
 *   {@link MAX_UNWRAP_DEPTH} levels: `timeout 60 npm test` is the part `npm test` (the wrapper's
 *   own words still meet the deny rules, with that part); `sudo npm test` is two parts,
 *   `sudo npm test` and `npm test`; `bash -c '<script>'` and `eval` are the parts of the script.
 * - Deny rules match the words as shapes (word-shape.ts), with leading `NAME=value`
 *   assignments dropped, and a path in the command position also by its basename (`/bin/rm`
 *   is `rm` to `exec(rm *)`).
 * - Allow rules match the part as written, or its words one space apart, assignments kept:
 *   `GIT_SSH_COMMAND=... git fetch` or `LD_PRELOAD=... git status` is not the git an
 *   `exec(git *)` meant. Each form says where its program name ends (`head`): a rule names the
 *   program, assignments included, in full before its first wildcard, or starts with one
 *   (`exec(*)`), so `exec(ls*)` does not cover `ls=1 touch M` or `lsblk`. The words form is left
 *   out when the name or an assignment holds a space (`"git status/x"` is not `git status/x`),
 *   and a form whose name is quoted or escaped as written must be matched whole.
 *   A command given by a path is that file, not the one on PATH: an allow
 *   rule names the path (`exec(./gradlew *)`), `exec(git *)` does not cover `/tmp/evil/git`,
 *   and wrappers are only unwrapped when named bare, in lower case and without assignments
 *   (`/tmp/x/timeout 5 git status` is a program of its own; deny rules still look inside it,
 *   also through `Timeout`, which a case-insensitive file system finds).
 *
 * Hazards besides the parser's (shell-command.ts; a readable `substitution` is not one here):
 * - `dynamic-command`: the command's name comes from an expansion, a glob or a brace
 *   (`$X -rf /`, `/bin/r? -rf /`, `{rm,-rf,/}`, `git${IFS}status`): what runs is only known
 *   when it runs;
 * - `non-ascii-command`: a command name with non-ASCII characters, which can look like another
 *   (`gіt` with a Cyrillic і);
 * - `executing-option`: options that run commands (git-options.ts, interpreters.ts);
 * - `interpreter-code`: code no rule can read (unwrapped.ts): `python -c`, `| sh`, `. <(...)`;
 * - `code-variable`: a variable set in front of the command that loads code or config no rule
 *   can read (`LD_PRELOAD=`, `PATH=`, `NODE_OPTIONS=`: code-variables.ts); one that holds a
 *   command line (`GIT_PAGER=`, `EDITOR=`) is read as shell code instead, for deny rules;
 * - `unparsable` also when a wrapper's options cannot be read, shell code is expanded by the
 *   outer shell first (`bash -c "$X"`), or the nesting is deeper than the limit.
 */

export type CommandHazard =
  | Exclude<ShellHazard, 'substitution'>
  | 'dynamic-command'
  | 'non-ascii-command'
  | 'executing-option'
  | 'interpreter-code'
  | 'code-variable'

/** What deny rules test of a part: its own shapes, then those of each wrapper around it. */
export interface DenyForms {
  shapes: string[]
  outer?: DenyForms
}

/** A literal form of a part, and how much of it names the program (its assignments and name). */
export interface AllowForm {
  text: string
  head: number
}

export interface CommandPart {
  /** Literal forms an allow or prompt rule may match. */
  allow: AllowForm[]
  deny: DenyForms
}

export interface CommandAnalysis {
  parts: CommandPart[]
  writes: FileWrite[]
  hazards: CommandHazard[]
}

/** Wrappers and scripts nested deeper are not read: each level reads the text inside it again. */
export const MAX_UNWRAP_DEPTH = 8

export function analyzeCommandLine(line: string): CommandAnalysis {
  const analysis = new Analysis()
  analysis.script(line, 0)
  return {hazards: [...analysis.hazards], parts: analysis.parts, writes: analysis.writes}
}

interface Command extends Argv {
  text: string
}

const NON_ASCII = /[^ -~]/
const DIRECTORY_CHANGES = new Set(['cd', 'popd', 'pushd'])

class Analysis {
  readonly parts: CommandPart[] = []
  readonly writes: FileWrite[] = []
  readonly hazards = new Set<CommandHazard>()
  /**
   * Where relative paths are, once a `cd` moved: `cd .hanzo; echo x > settings.json` writes
   * .hanzo/settings.json. Read without the scopes of subshells: a later write is then placed
   * in a directory it may not be in, which only deny rules see.
   */
  private directory?: FileWrite

  /**
   * `outer`: the wrappers around it, whose words deny rules read with each part. `into`: the
   * part of an opaque wrapper around it (named by a path, in another case, or after
   * assignments), which takes in what deny rules should read instead of making parts that
   * need allowing.
   */
  script(line: string, depth: number, outer?: DenyForms, into?: CommandPart): void {
    const parsed = parseShellCommand(line)
    for (const hazard of parsed.hazards) if (hazard !== 'substitution') this.hazards.add(hazard)
    for (const command of parsed.commands) {
      for (const redirection of command.redirections) if (redirection.writes) this.write([redirection])
      let start = 0
      while (start < command.words.length && RESERVED_WORDS.has(command.words[start])) start++
      if (start === command.words.length) continue
      const words = command.words.slice(start)
      this.command(
        {shapes: command.shapes.slice(start), text: start === 0 ? command.text : words.join(' '), words},
        depth,
        outer,
        into,
      )
    }
  }

  private command(command: Command, depth: number, outer?: DenyForms, into?: CommandPart): void {
    let assignments = 0
    while (assignments < command.words.length && ASSIGNMENT.test(command.words[assignments])) assignments++
    const part: CommandPart = {
      allow: allowForms(command, assignments),
      deny: {outer, shapes: denyShapes(command, assignments)},
    }
    for (let i = 0; i < assignments; i++) this.assignment(command, i, depth, outer, into ?? part)
    const name = command.words[assignments]
    if (name === undefined) return this.add(part, into)
    if (hasWildcard(command.shapes[assignments])) this.hazards.add('dynamic-command')
    if (NON_ASCII.test(name)) this.hazards.add('non-ascii-command')
    const program = name.slice(name.lastIndexOf('/') + 1).toLowerCase()
    const args = {shapes: command.shapes.slice(assignments + 1), words: command.words.slice(assignments + 1)}
    if (DIRECTORY_CHANGES.has(program)) this.changeDirectory(program, args)
    this.write(writtenFiles(program, args))
    const unwrapped = unwrapCommand(program, args)
    if (!unwrapped) return this.add(part, into)
    if (depth >= MAX_UNWRAP_DEPTH) {
      this.hazards.add('unparsable')
      return this.add(part, into)
    }

    for (const hazard of unwrapped.hazards) this.hazards.add(hazard)
    this.write(unwrapped.writes)
    const opaque = assignments > 0 || name.includes('/') || name !== name.toLowerCase()
    let inner: {outer?: DenyForms; into?: CommandPart}
    if (into) {
      this.add(part, into)
      inner = {into}
    } else if (opaque) {
      this.parts.push(part)
      inner = {into: part}
    } else {
      if (unwrapped.self) this.parts.push(part)
      inner = {outer: unwrapped.self ? outer : part.deny}
    }

    for (const argv of unwrapped.commands)
      this.command({...argv, text: argv.words.join(' ')}, depth + 1, inner.outer, inner.into)
    for (const {literal, text} of unwrapped.scripts) {
      if (!literal) this.hazards.add('unparsable')
      this.script(text, depth + 1, inner.outer, inner.into)
    }
  }

  /** `GIT_PAGER='rm -rf ~' git log`: what a variable that runs or loads something holds meets the deny rules (code-variables.ts). */
  private assignment(
    command: Command,
    at: number,
    depth: number,
    outer: DenyForms | undefined,
    into: CommandPart,
  ): void {
    const word = command.words[at]
    const name = word.slice(0, word.search(/\+?=|\[/))
    const kind = codeVariable(name)
    if (kind === 'code') this.hazards.add('code-variable')
    if (kind !== 'command') return
    if (depth >= MAX_UNWRAP_DEPTH || hasWildcard(command.shapes[at])) this.hazards.add('unparsable')
    else this.script(word.slice(word.indexOf('=') + 1), depth + 1, outer, into)
  }

  private write(files: readonly FileWrite[]): void {
    for (const file of files) this.writes.push(this.placed(file))
  }

  /** `cd dir`, `pushd dir`: that directory, placed like a path; `cd`, `cd -`, `popd`: somewhere. */
  private changeDirectory(program: string, args: Argv): void {
    const at = args.words.findIndex((word) => !/^-[@LPe]+$/.test(word))
    const somewhere = program === 'popd' || at === -1 || args.words[at] === '-'
    this.directory = somewhere
      ? {shape: '*', target: '(another directory)'}
      : this.placed({shape: args.shapes[at], target: args.words[at]})
  }

  /** A relative path in the current directory (one that starts unknown, like `~/x`, stays as it is). */
  private placed(file: FileWrite): FileWrite {
    const {directory} = this
    if (!directory || /^[*/]/.test(file.shape)) return file
    return {shape: `${directory.shape}/${file.shape}`, target: `${directory.target}/${file.target}`}
  }

  private add(part: CommandPart, into?: CommandPart): void {
    if (into) into.deny.shapes.push(...part.deny.shapes)
    else this.parts.push(part)
  }
}

/** The command as written and its words one space apart (see the head rule above). */
function allowForms(command: Command, assignments: number): AllowForm[] {
  const head = command.words.slice(0, assignments + 1)
  const named = head.join(' ')
  const words = command.words.join(' ')
  // A space inside the name or an assignment makes the words form read as other words.
  const spaced = head.some((word) => /\s/.test(word))
  const texts = unique([command.text, words]).filter((text) => !spaced || text !== words)
  return texts.map((text) => ({
    head: text.startsWith(named) && /^(?:\s|$)/.test(text.slice(named.length)) ? named.length : text.length,
    text,
  }))
}

/**
 * The command as written, its words, and without leading assignments; its name also by the
 * basename of a path and in lower case (macOS finds `/bin/rm` for `RM`).
 */
function denyShapes(command: Command, assignments: number): string[] {
  const [name, ...args] = command.shapes.slice(assignments)
  const shapes = [literalShape(command.text), command.shapes.join(' ')]
  if (name === undefined) return unique(shapes)
  const base = name.slice(name.lastIndexOf('/') + 1)
  for (const spelling of unique([name, base, name.toLowerCase(), base.toLowerCase()]))
    shapes.push([spelling, ...args].join(' '))
  return unique(shapes)
}

function unique(values: string[]): string[] {
  return [...new Set(values)]
}
