import {mkdirSync, mkdtempSync, realpathSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {execa} from 'execa'
import {afterEach, beforeEach} from 'vitest'

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..')
export const CLI = join(REPO_ROOT, 'bin', 'run.js')

export interface Sandbox {
  /** A temp directory that stands in for the user's home. */
  home: string
  /** HOME and every XDG directory inside `home`, colour off, no update checks. */
  env: Record<string, string>
  cleanup(): void
}

/**
 * Tests never touch the real home: HOME and the XDG dirs point into a fresh temp dir, under
 * `parent` (/var/tmp where the sandbox gives commands a private /tmp).
 */
export function makeSandbox(prefix = 'hanzo-test-', parent = tmpdir()): Sandbox {
  const home = realpathSync(mkdtempSync(join(parent, prefix)))
  const env: Record<string, string> = {
    HOME: home,
    NO_COLOR: '1',
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
  }
  return {cleanup: () => rmSync(home, {force: true, recursive: true}), env, home}
}

export interface CliResult {
  stdout: string
  stderr: string
  exitCode: number
}

interface CliOptions {
  cwd?: string
  env?: Record<string, string>
  input?: string
  /** Leaves stdin open as a pipe (`child.stdin`) instead of closing it at once. */
  openStdin?: boolean
  bin?: string
  /** In a process group of its own (`process.kill(-child.pid, ...)` reaches it and what it started). */
  detached?: boolean
}

/** Starts the built CLI (`bin/run.js`) as a user would, without inheriting HANZO_* from the caller. */
export function spawnCli(args: string[], options: CliOptions = {}) {
  // Neither the caller's settings nor vitest's NODE_ENV=test nor `npm test`'s npm_config_*
  // may leak in: the CLI must run as a user runs it.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(HANZO_|XDG_|OPENAI_|ANTHROPIC_|npm_|NODE_ENV$)/i.test(k)),
  )
  return execa(process.execPath, [options.bin ?? CLI, ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: {...inherited, ...options.env},
    extendEnv: false,
    ...(options.detached && {detached: true}),
    ...(options.openStdin ? {} : {input: options.input ?? ''}),
    reject: false,
  })
}

/** Runs the built CLI to the end. */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const result = await spawnCli(args, options)
  return {exitCode: result.exitCode ?? 1, stderr: result.stderr, stdout: result.stdout}
}

/**
 * A fresh sandbox per test with named directories inside it (created before each test,
 * removed after): `const dirs = useSandboxDirs('hanzo-lsp-', 'project', 'bin')`.
 */
export function useSandboxDirs<N extends string>(prefix: string, ...names: N[]) {
  const state = {} as {box: Sandbox} & Record<N, string>
  beforeEach(() => {
    state.box = makeSandbox(prefix)
    for (const name of names) {
      state[name] = join(state.box.home, name) as (typeof state)[N]
      mkdirSync(state[name], {recursive: true})
    }
  })
  afterEach(() => state.box.cleanup())
  return state
}

/** oclif wraps long errors and warnings at the terminal width, continuing with ` ›   `: undone so a message matches whole. */
export function unwrapped(stderr: string): string {
  return stderr.replaceAll(/\s*\n\s*(›\s*)?/g, ' ')
}
