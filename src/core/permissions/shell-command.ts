import {ShellScanner} from './shell-scanner.js'

/**
 * Cuts a shell command line into its simple commands, the way bash reads it (exec runs
 * `bash -c`), and notes what in it no pattern can vouch for: the CVE-2025-54795 class, where
 * an allow rule `exec(git status*)` must not allow `git status; rm -rf ~`. What the rules make
 * of the commands (wrappers, every part allowed, any part denied) is command-analysis.ts.
 *
 * What it reads, as bash does:
 * - separators `;`, `&&`, `||`, `|`, `&`, newlines, and the parentheses of subshells;
 * - quotes: '...' (no escapes), "..." (backslash escapes only $ ` " \ and newline),
 *   $'...' (decoded: `$'\x72m'` is `rm`), $"..." (the text), backslash outside quotes,
 *   backslash-newline continuations;
 * - `#` at the start of a word comments out the rest of the line (an unbalanced quote in a
 *   comment must not make the next line look quoted);
 * - `$(...)`, backticks, `<(...)`, `>(...)`: the commands inside are listed too (before the
 *   command holding them), since they run; a backtick's text is read again once its `\\`,
 *   `\``, `\$` (and in "..." `\"`) are unescaped, so backticks nest through escapes
 *   (`` ls `ls \`touch M\`` `` runs `touch M`); `${...}` is one piece of a word when its body
 *   holds no quotes, `$`, backticks or backslashes (bash and dash disagree on those);
 * - redirections apart from the words, each with its target.
 *
 * Every word also gets its shape (word-shape.ts): what it may still expand into.
 *
 * Hazards, what no allow pattern can vouch for on its own:
 * - `substitution`: a `$(...)`, `$((...))`, backtick, `<(...)` or `>(...)` (whose commands are
 *   listed: the analysis asks the rules about them);
 * - `file-redirection`: `>`, `>>`, `>|`, `&>`, `<>` or `>&` to a file (not `2>&1`, `>&-`,
 *   and not `/dev/null`, where writing changes nothing): the rules cannot see where a name
 *   leads (a symlink in the workspace may point at `~/.bashrc`);
 * - `heredoc`: `<<` and `<<-` (the lines after it are data, yet read here as commands, which
 *   only deny rules gain from);
 * - `unparsable`: an unterminated quote or substitution, a redirection without a target, a
 *   `${...}` it does not read, substitutions nested more than 16 deep, or `$'...\'...'`,
 *   which bash reads as one string and dash ends at the `\'`;
 * - `hidden-character`: control characters (a lone CR redraws the line over itself, a NUL cuts
 *   it) and invisible or bidirectional formatting characters: what the user is shown is not
 *   what runs.
 */

export type ShellHazard = 'substitution' | 'file-redirection' | 'heredoc' | 'unparsable' | 'hidden-character'

export interface Redirection {
  /** The operator with its descriptor: `>`, `2>>`, `&>`, `<`, `>&`, `<<`. */
  operator: string
  /** The target after quote removal (for a here-document, its delimiter). */
  target: string
  /** The target's shape (word-shape.ts). */
  shape: string
  /** Whether it writes a file (see `file-redirection`). */
  writes: boolean
}

export interface SimpleCommand {
  /** The command as written, trimmed: quotes, comments and redirections kept. */
  text: string
  /** Its words after quote removal, redirections left out. */
  words: string[]
  /** The shape of each word (word-shape.ts). */
  shapes: string[]
  redirections: Redirection[]
}

export interface ParsedShellCommand {
  commands: SimpleCommand[]
  /** What no pattern can vouch for, each kind once, in the order found. */
  hazards: ShellHazard[]
}

export function parseShellCommand(line: string): ParsedShellCommand {
  return new ShellScanner(line).parse()
}

/**
 * The words that name what runs: leading `NAME=value` assignments and reserved words
 * (`if`, `then`, `!`, `{`, `time -p`, ...) dropped, so a rule suggested for
 * `TOKEN=... curl x` or `if true; then make; fi` names the program (and no secret). The
 * rules themselves read more (command-analysis.ts): for them an assignment like
 * `GIT_SSH_COMMAND=...` changes what the command does.
 */
export function commandWords(command: SimpleCommand): string[] {
  let first = command.words.findIndex((word) => !RESERVED_WORDS.has(word) && word !== 'time' && !ASSIGNMENT.test(word))
  if (first > 0 && command.words[first - 1] === 'time' && command.words[first] === '-p') first++
  return first === -1 ? [] : command.words.slice(first)
}

/** Words that start a compound command or a pipeline, where the command proper follows. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  '!',
  '{',
  '}',
  'coproc',
  'do',
  'done',
  'elif',
  'else',
  'fi',
  'if',
  'then',
  'until',
  'while',
])
export const ASSIGNMENT = /^[A-Z_a-z]\w*(?:\[[^\]]*])?\+?=/
