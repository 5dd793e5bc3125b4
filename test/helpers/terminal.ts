import {spawn} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {stripVTControlCharacters} from 'node:util'
import {execa} from 'execa'
import {afterAll, beforeAll} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {CLI, makeSandbox, type Sandbox} from './cli.js'
import {waitUntil} from './processes.js'

/**
 * Real terminals for tests: a tmux server of the test's own (a private socket, no user config),
 * each session one pane running one command, as a user would see it. A pane stays on screen after
 * its command exits, so the test reads the final screen and the exit status.
 */
export class Terminals {
  private constructor(
    private readonly dir: string,
    private readonly env: Record<string, string>,
  ) {}

  /** `env` is the whole environment of the commands (with PATH for node, and a UTF-8 locale). */
  static create(env: Record<string, string>): Terminals {
    const dir = mkdtempSync(join(tmpdir(), 'hanzo-tmux-'))
    writeFileSync(join(dir, 'tmux.conf'), 'set -g remain-on-exit on\nset -g remain-on-exit-format ""\n')
    const path = `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`
    return new Terminals(dir, {LANG: 'C.UTF-8', PATH: path, ...env})
  }

  /** Starts `command` (a shell command line) in a `width` x `height` terminal named `name`. */
  async open(name: string, command: string, options: {cwd: string; width?: number; height?: number}): Promise<void> {
    const size = ['-x', String(options.width ?? 100), '-y', String(options.height ?? 30)]
    await this.tmux('new-session', '-d', '-s', name, ...size, '-c', options.cwd, command)
  }

  /** What the terminal shows: one string per line, wrapped lines joined, trailing blank lines left out. */
  async screen(name: string): Promise<string[]> {
    const {stdout} = await this.tmux('capture-pane', '-p', '-J', '-t', name)
    const lines = stdout.split('\n').map((line) => line.trimEnd())
    while (lines.at(-1) === '') lines.pop()
    return lines
  }

  /**
   * The rows as drawn (a wrapped line is several), trailing blank rows left out, and the cursor's
   * row and column; with `history`, the rows scrolled off the top come first (the cursor's row still counts from the screen's top).
   */
  async rows(
    name: string,
    options: {history?: boolean} = {},
  ): Promise<{cursor: [row: number, column: number]; rows: string[]}> {
    const {stdout} = await this.tmux('capture-pane', '-p', ...(options.history ? ['-S', '-'] : []), '-t', name)
    const rows = stdout.split('\n').map((line) => line.trimEnd())
    while (rows.at(-1) === '') rows.pop()
    const [column, row] = (await this.tmux('display-message', '-p', '-t', name, '#{cursor_x} #{cursor_y}')).stdout
      .trim()
      .split(' ')
      .map(Number)
    return {cursor: [row, column], rows}
  }

  /** Waits until the screen shows `text`; the screen then. */
  async waitFor(name: string, text: string): Promise<string[]> {
    let screen: string[] = []
    await waitUntil(
      async () => {
        screen = await this.screen(name)
        return screen.join('\n').includes(text)
      },
      `the screen shows ${JSON.stringify(text)}`,
    )
    return screen
  }

  /** Resizes the terminal, as a user dragging its window's edge does (the command gets SIGWINCH). */
  async resize(name: string, width: number, height?: number): Promise<void> {
    await this.tmux('resize-window', '-t', name, '-x', String(width), ...(height ? ['-y', String(height)] : []))
  }

  /** Types keys, in tmux's names (`C-c`, `Enter`). */
  async keys(name: string, ...keys: string[]): Promise<void> {
    await this.tmux('send-keys', '-t', name, ...keys)
  }

  /** Pastes `text` as a terminal does: bracketed (ESC[200~ ... ESC[201~) when the program asked for it, line breaks as CR. */
  async paste(name: string, text: string): Promise<void> {
    await this.tmux('set-buffer', '-b', 'paste', '--', text)
    await this.tmux('paste-buffer', '-p', '-d', '-b', 'paste', '-t', name)
  }

  /**
   * Waits for the command to end; its exit status. Debian's tmux can miss a command's SIGCHLD
   * (libutempter's own handler is in place while tmux updates utmp: tmux/tmux#311), leaving the
   * pane dead with no status, under load often; a SIGCHLD to this test's own server makes it reap.
   */
  async exitStatus(name: string): Promise<number> {
    let status: string | undefined
    try {
      await waitUntil(async () => {
        const [dead, server, code] = (
          await this.tmux('display-message', '-p', '-t', name, '#{pane_dead} #{pid} #{pane_dead_status}')
        ).stdout
          .trim()
          .split(' ')
        if (dead === '1' && code === undefined) process.kill(Number(server), 'SIGCHLD')
        status = code
        return dead === '1' && code !== undefined
      }, 'the command exited')
    } catch (error) {
      throw new Error(`${(error as Error).message}; the screen:\n${(await this.screen(name)).join('\n')}`)
    }

    return Number(status)
  }

  async close(): Promise<void> {
    await this.tmux('kill-server').catch(() => {})
    rmSync(this.dir, {force: true, recursive: true})
  }

  private tmux(...args: string[]) {
    return execa('tmux', ['-u', '-S', join(this.dir, 'socket'), '-f', join(this.dir, 'tmux.conf'), ...args], {
      env: this.env,
      extendEnv: false,
    })
  }
}

export interface TerminalRun {
  /** Everything the terminal was sent so far, escape sequences removed. */
  output(): string
  /** Everything the terminal was sent so far, byte for byte (as UTF-8): what it would obey. */
  raw(): string
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
    raw: () => raw,
    type: (keys) => child.stdin.write(keys),
    waitFor: (text) =>
      waitUntil(() => output().includes(text), `the terminal shows ${JSON.stringify(text)}`).catch((error: Error) => {
        throw new Error(`${error.message}; it shows:\n${output()}`)
      }),
  }
}

/**
 * For a file of chat tests: once for the file, a sandbox home with a `project` directory, the
 * sandbox on (`workspace`: inside a container it is off by default and every start says so),
 * terminals with colour as a user's shell has it, and `script(name, turns)` to write a model script.
 */
export function useChatTerminals(prefix: string) {
  const state = {} as {
    box: Sandbox
    project: string
    terminals: Terminals
    script(name: string, turns: Script['turns']): string
  }
  beforeAll(() => {
    state.box = makeSandbox(prefix)
    state.project = join(state.box.home, 'project')
    mkdirSync(state.project)
    mkdirSync(join(state.box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(
      join(state.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
      JSON.stringify({sandbox: {mode: 'workspace'}}),
    )
    state.terminals = Terminals.create(
      Object.fromEntries(Object.entries(state.box.env).filter(([key]) => key !== 'NO_COLOR')),
    )
  })
  afterAll(async () => {
    await state.terminals.close()
    state.box.cleanup()
  })
  state.script = (name, turns) => {
    const file = join(state.box.home, `${name}.json`)
    writeFileSync(file, JSON.stringify({model: 'fake-model', turns}))
    return file
  }

  return state
}

/** The line `run` ends with on a terminal: what it cost (src/cli/run-output.ts). */
export const RUN_END_LINE = /^── \d+ model requests? · [\d,]+ in/

/** A `run`'s screen without the cost line it must end with: the answer and the activity. */
export function beforeRunEndLine(screen: readonly string[]): string[] {
  if (!RUN_END_LINE.test(screen.at(-1) ?? ''))
    throw new Error(`the run did not end with its cost line:\n${screen.join('\n')}`)
  return screen.slice(0, -1)
}
