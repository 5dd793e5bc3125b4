import {findExecutable} from '@hanzo-dev/sdk'

/**
 * Builtins and keywords of every POSIX sh: a hook such as `exit 2` (deny everything) or
 * `if ...; then ...; fi` runs without any file on PATH.
 */
// The shell's own words, a few to a line (not tool names: `exec` here is the shell builtin).
// prettier-ignore
const SHELL_WORDS = new Set([
  '!', '.', ':', '[', '{', 'break', 'case', 'cd', 'command', 'continue', 'echo', 'eval', 'exec', 'exit',
  'export', 'false', 'for', 'if', 'printf', 'read', 'readonly', 'return', 'set', 'shift', 'test', 'times',
  'trap', 'true', 'type', 'ulimit', 'umask', 'unset', 'until', 'wait', 'while',
])

export type CommandWord = {word: string} | {problem: string}

/**
 * The program a shell command line starts: the first word after any `NAME=value`
 * assignments, with quotes removed and a leading `~/` expanded. Only enough of sh's grammar
 * to find that word; the hook runner hands the whole line to sh.
 */
export function firstCommandWord(command: string, home: string | undefined): CommandWord {
  let rest = command
  for (;;) {
    const text = rest.trimStart()
    const parsed = readWord(text)
    if ('problem' in parsed) return parsed
    if (parsed.word === '') return {problem: 'the command is empty'}
    rest = parsed.rest
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) continue
    return {word: text.startsWith('~/') && home ? home + parsed.word.slice(1) : parsed.word}
  }
}

function readWord(text: string): {word: string; rest: string} | {problem: string} {
  if (/^[;&|<>()]/.test(text))
    return {problem: `the command starts with shell syntax (${text[0]}); start it with a program`}
  let word = ''
  let i = 0
  while (i < text.length && !/[\s;&|<>()]/.test(text[i])) {
    const c = text[i]
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1)
      if (end === -1) return {problem: `unbalanced ${c} quote`}
      word += text.slice(i + 1, end)
      i = end + 1
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[i + 1]
      i += 2
    } else {
      word += c
      i++
    }
  }

  return {rest: text.slice(i), word}
}

export interface ResolveOptions {
  env: Readonly<Record<string, string | undefined>>
  /** Where the hook runs: relative paths are taken from here. */
  cwd: string
}

export type ResolvedCommand =
  {word: string; path: string} | {word: string; builtin: true} | {word?: string; problem: string}

/** Whether the program a hook starts exists: a shell builtin, a file on PATH, or an executable path. */
export async function resolveHookCommand(command: string, options: ResolveOptions): Promise<ResolvedCommand> {
  const first = firstCommandWord(command, options.env.HOME)
  if ('problem' in first) return first
  const {word} = first
  if (SHELL_WORDS.has(word)) return {builtin: true, word}
  const path = await findExecutable(word, options)
  if (path) return {path, word}
  return {
    problem: word.includes('/') ? `${word}: no executable file there` : `${word}: not found on PATH`,
    word,
  }
}
