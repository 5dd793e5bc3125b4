import {wordsCarrySecret} from '../config/sensitive.js'
import {analyzeCommandLine} from './command-analysis.js'
import {unwrapCommand} from './command-wrappers.js'
import {commandWords, parseShellCommand} from './shell-command.js'
import {hasWildcard} from './word-shape.js'

/**
 * The words "allow for this session" widens a command line to, so that `a` on `ls -la` also
 * covers `ls -R` (the rule `exec(ls *)`), or why it covers only the exact command.
 *
 * Widened only when nothing in the line is left to guess: it is one simple command (no pipes,
 * `&&`, `;`, redirections, subshells, substitutions, assignments in front, no here-document) whose
 * words the shell scanner reads in full (no expansion, glob or brace anywhere, no hazard of
 * command-analysis.ts), that writes no file the analysis can see, runs nothing but itself
 * (no wrapper of command-wrappers.ts: `sudo`, `env`, `xargs`, `find`, `bash`, `eval`, ...) and is
 * named bare (`./gradlew` is a file of the workspace, which can change).
 *
 * The prefix is the program (`ls`), or for a tool whose first operand says what it does, the
 * program and that operand (`git diff`, `npm test`, `cargo build`, `make all`), and the script
 * name after `npm/pnpm/yarn run` (`npm run build`). A tool given options before that operand
 * (`git -C x status`, `make -j4 all`) is not widened: what follows depends on them.
 * Never widened: programs that run code named in their arguments (interpreters, shells, `ssh`,
 * `docker`, `npx`, `go run`, `npm install`, ...), and those whose every use destroys something
 * (`rm`, `dd`, `kill`, `chmod`, ...): for them "any arguments" is anything at all.
 */
export type CommandPrefix = {prefix: string} | {exact: string}

export function commandPrefix(line: string): CommandPrefix {
  const analysis = analyzeCommandLine(line)
  const parsed = parseShellCommand(line)
  const [command] = parsed.commands
  // A command in a subshell, or sent to the background, is one whose text is not the whole line.
  if (parsed.commands.length !== 1 || analysis.parts.length !== 1 || command.text !== line.trim())
    return {exact: 'it is more than one command (a pipe, a list, a subshell or a substitution)'}
  if (parsed.hazards.length > 0 || analysis.hazards.length > 0 || command.redirections.length > 0)
    return {exact: 'it redirects, or holds something no rule can read in full'}
  const {shapes, words} = command
  if (commandWords(command).length !== words.length) return {exact: 'something comes before the program'}
  if (shapes.some((shape) => hasWildcard(shape))) return {exact: 'it holds an expansion, a glob or a brace'}

  const [program, ...args] = words
  if (!BARE_WORD.test(program)) return {exact: 'its program is not named by a plain name'}
  const never = NEVER_WIDENED.get(program) ?? (/^(?:python|pypy|mkfs)/.test(program) ? RUNS_CODE : undefined)
  if (never) return {exact: never}
  if (unwrapCommand(program, {shapes: shapes.slice(1), words: args})) return {exact: RUNS_CODE}
  if (analysis.writes.length > 0) return {exact: 'it writes a file'}

  const tool = SUBCOMMAND_TOOLS[program]
  if (!tool) return {prefix: program}
  const [operand, script] = args
  if (operand === undefined || operand.startsWith('-') || !BARE_WORD.test(operand))
    return {exact: `${program} is given no ${tool.operand} before its options`}
  if (tool.never?.includes(operand)) return {exact: `${program} ${operand} runs code named in the words after it`}
  const prefix = [program, operand]
  if (tool.scripts?.includes(operand) && script !== undefined) {
    if (script.startsWith('-') || !BARE_WORD.test(script)) return {exact: 'it names no script before its options'}
    prefix.push(script)
  }

  if (wordsCarrySecret(prefix)) return {exact: 'it may hold a secret, which a rule would spell out'}
  return {prefix: prefix.join(' ')}
}

/** A name a rule can spell as it is: no wildcard of the rule's glob, no space, no quote. */
const BARE_WORD = /^[\w@%+=:,.-]+$/

const RUNS_CODE = 'it runs code named in its arguments'
const DESTROYS = 'whatever it is given, it destroys or takes away something'

const NEVER_WIDENED: ReadonlyMap<string, string> = new Map([
  ...[
    ...['awk', 'gawk', 'mawk', 'nawk', 'sed', 'perl', 'ruby', 'irb', 'php', 'lua', 'luajit', 'tclsh', 'wish'],
    ...['node', 'nodejs', 'deno', 'bun', 'tsx', 'ts-node', 'ipython', 'Rscript', 'R', 'julia', 'java', 'jshell'],
    ...['osascript', 'pwsh', 'powershell', 'fish', 'csh', 'tcsh', 'expect', 'gdb', 'lldb', 'm4', 'busybox'],
    ...['env', 'sudo', 'doas', 'su', 'xargs', 'parallel', 'find', 'watch', 'ssh', 'scp', 'sftp', 'man'],
    ...['npx', 'pnpx', 'bunx', 'uvx', 'pipx', 'docker', 'podman', 'kubectl', 'open', 'xdg-open', 'crontab', 'at'],
    ...['vi', 'vim', 'nvim', 'emacs', 'ed', 'ex', 'tmux', 'screen', 'source', '.'],
  ].map((name): [string, string] => [name, RUNS_CODE]),
  ...['rm', 'rmdir', 'shred', 'dd', 'truncate', 'kill', 'pkill', 'killall', 'chmod', 'chown', 'chgrp'].map(
    (name): [string, string] => [name, DESTROYS],
  ),
])

interface SubcommandTool {
  /** What its first operand is called, for the reason it is not widened. */
  operand: string
  /** Operands after which a script name follows (`npm run build`). */
  scripts?: readonly string[]
  /** Operands that run code named in the words after them, or fetch and run a package. */
  never?: readonly string[]
}

const PACKAGE_MANAGER_NEVER = ['exec', 'x', 'exe', 'dlx', 'explore', 'install', 'i', 'add', 'create', 'init']

const SUBCOMMAND_TOOLS: Readonly<Record<string, SubcommandTool>> = {
  cargo: {never: ['install'], operand: 'subcommand'},
  dotnet: {operand: 'subcommand'},
  gh: {never: ['api', 'extension', 'ext'], operand: 'subcommand'},
  git: {never: ['config'], operand: 'subcommand'},
  gmake: {operand: 'target'},
  go: {never: ['run'], operand: 'subcommand'},
  make: {operand: 'target'},
  npm: {never: PACKAGE_MANAGER_NEVER, operand: 'subcommand', scripts: ['run', 'run-script', 'rum', 'urn']},
  pip: {never: ['install', 'download', 'wheel'], operand: 'subcommand'},
  pip3: {never: ['install', 'download', 'wheel'], operand: 'subcommand'},
  pnpm: {never: PACKAGE_MANAGER_NEVER, operand: 'subcommand', scripts: ['run', 'run-script']},
  uv: {never: ['run', 'tool', 'pip'], operand: 'subcommand'},
  yarn: {never: PACKAGE_MANAGER_NEVER, operand: 'subcommand', scripts: ['run']},
}
