import {spawn} from 'node:child_process'
import {stripVTControlCharacters} from 'node:util'

import {CLI} from './cli.js'
import {waitUntil} from './processes.js'

export interface TerminalRun {
  /** Everything the terminal was sent so far, escape sequences removed. */
  output(): string
  /** Waits until the output holds `text`. */
  waitFor(text: string): Promise<void>
  /** Types into the terminal, as keys: `\r` is Enter, `\u0003` is Ctrl-C. */
  type(keys: string): void
  /** The CLI's exit code, once it has ended. */
  exitCode: Promise<number | null>
}

/**
 * Starts the built CLI on a pseudo-terminal (util-linux `script`, in every Debian), so stdin,
 * stdout and stderr are a TTY as at a user's terminal. `env` is the whole environment, plus PATH.
 */
export function runOnTerminal(args: string[], options: {cwd: string; env: Record<string, string>}): TerminalRun {
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`
  const child = spawn('script', ['-qefc', [process.execPath, CLI, ...args].map(quote).join(' '), '/dev/null'], {
    cwd: options.cwd,
    env: {PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm', ...options.env},
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  let raw = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk))
  const output = () => stripVTControlCharacters(raw).replaceAll('\r', '')
  const exitCode = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  return {
    exitCode,
    output,
    type: (keys) => child.stdin.write(keys),
    waitFor: (text) =>
      waitUntil(() => output().includes(text), `the terminal shows ${JSON.stringify(text)}`).catch((error: Error) => {
        throw new Error(`${error.message}; it shows:\n${output()}`)
      }),
  }
}
