import {type CommandResult, runCommand} from '@hanzo-dev/sdk'

export interface GitContext {
  /** The directory git runs in. */
  cwd: string
  env: Readonly<Record<string, string | undefined>>
  signal?: AbortSignal
  /** `-c` settings for every call: the agent's tools turn off what a repository's config could make git run. */
  config?: readonly string[]
}

/** Reading repository state is quick; anything slower than this means git is stuck (a lock, a network mount). */
export const GIT_TIMEOUT_MS = 5000

/** Runs git with `args` (no shell): quick reads of repository state, for the doctor checks. */
export function runGit(args: readonly string[], context: GitContext): Promise<CommandResult> {
  return runCommand('git', args, {
    cwd: context.cwd,
    env: context.env,
    signal: context.signal,
    timeoutMs: GIT_TIMEOUT_MS,
  })
}

/** `git version 2.39.5` -> `2.39.5`; undefined when git cannot run. */
export async function gitVersion(context: GitContext): Promise<string | undefined> {
  const result = await runGit(['--version'], context)
  if (!result.ok) return undefined
  return /(\d+\.\d+(?:\.\d+)?)/.exec(result.stdout)?.[1] ?? result.stdout.trim()
}

export interface GitResult {
  ok: boolean
  exitCode?: number
  stdout: string
  stderr: string
  /** stdout was cut at `maxChars` (git was stopped there). */
  truncated: boolean
}

export interface GitOptions {
  /** Keep this much of stdout and stop git there (a diff can be any size). */
  maxChars?: number
  /** Where git's stderr also goes as it is written (a hook's output, for the user to see). */
  echoStderr?: boolean
  /** The terminal, for a command that may ask (credentials, an editor); default none. */
  inheritStdin?: boolean
  /** Default none: commit hooks, pushes and worktree checkouts take as long as they take. */
  timeoutMs?: number
}

/** Paths as they are (no octal quoting of unicode), and nothing the repository configures rewriting what is read. */
const READ_SAFE = ['-c', 'core.quotepath=false']

/**
 * git through execa with an argument array, never a shell. Never rejects: a non-zero exit comes
 * back as `ok: false` with git's own stderr, which is what the user needs to see.
 */
export async function git(args: readonly string[], context: GitContext, options: GitOptions = {}): Promise<GitResult> {
  const {execa} = await import('execa')
  const config = (context.config ?? []).flatMap((setting) => ['-c', setting])
  const result = await execa('git', [...READ_SAFE, ...config, ...args], {
    cancelSignal: context.signal,
    cwd: context.cwd,
    env: context.env as Record<string, string>,
    extendEnv: false,
    maxBuffer: options.maxChars ?? 64 * 1024 * 1024,
    reject: false,
    stderr: options.echoStderr ? ['pipe', 'inherit'] : 'pipe',
    stdin: options.inheritStdin ? 'inherit' : 'ignore',
    stripFinalNewline: false,
    timeout: options.timeoutMs,
  })
  const truncated = result.isMaxBuffer === true
  return {
    exitCode: result.exitCode,
    ok: !result.failed,
    stderr: String(result.stderr ?? ''),
    stdout: String(result.stdout ?? ''),
    truncated,
  }
}

/** git's stdout, or a GitError with git's message. */
export async function gitOutput(args: readonly string[], context: GitContext, what: string): Promise<string> {
  const result = await git(args, context)
  if (!result.ok) throw gitFailure(what, result)
  return result.stdout
}

/** The one line git said about why it failed, or its exit code. */
export function gitSaid(result: GitResult): string {
  const lines = result.stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  const fatal = lines.find((line) => /^(fatal|error):/.test(line)) ?? lines.at(-1)
  return fatal ? fatal.replace(/^(fatal|error):\s*/, '') : `git exited with code ${result.exitCode ?? 'unknown'}`
}

export class GitError extends Error {
  readonly hint?: string
  readonly exitCode: number
  /** What git (or a hook) printed, when the user has not seen it yet (it was not echoed). */
  readonly output?: string

  constructor(message: string, options: {hint?: string; exitCode?: number; output?: string} = {}) {
    super(message)
    this.name = 'GitError'
    this.hint = options.hint
    this.exitCode = options.exitCode ?? 1
    this.output = options.output
  }
}

export function gitFailure(what: string, result: GitResult, hint?: string): GitError {
  return new GitError(`${what}: ${gitSaid(result)}`, {hint})
}
