import {type ChildProcess, spawn} from 'node:child_process'
import {finished} from 'node:stream/promises'

import {
  findExecutable,
  KILL_GRACE_MS,
  terminateGroup,
  type ToolContext,
  type ToolDefinition,
  type ToolResult,
  toolError,
  toolOk,
} from '@hanzo-dev/sdk'

import type {BackgroundProcesses} from './background-processes.js'
import {withoutCredentials} from './child-env.js'
import {startInBackground} from './exec-background.js'
import {HeadTailBuffer} from './head-tail-buffer.js'
import {objectSchema} from './input-schema.js'

export type ExecInput = {
  command: string
  timeout_ms?: number
  description?: string
  background?: boolean
}

export const EXEC_DEFAULT_TIMEOUT_MS = 120_000
export const EXEC_MAX_TIMEOUT_MS = 600_000
/** Bytes kept of each of stdout and stderr: half from the start, half from the end. */
export const EXEC_MAX_STREAM_BYTES = 1024 * 1024

type Ending =
  | {kind: 'exited'; code: number | null; signal: NodeJS.Signals | null}
  | {kind: 'timeout'}
  | {kind: 'cancelled'}
  | {kind: 'failed'; error: NodeJS.ErrnoException}

export interface ExecOptions {
  /** Variables passed to the command although they look secret (the `exec.env_passthrough` setting). */
  envPassthrough?: readonly string[]
  /** How long what the command started has between SIGTERM and SIGKILL, and its pipes to close after; default KILL_GRACE_MS. */
  killGraceMs?: number
  /** The session's background commands; without it, `background: true` is refused. */
  background?: BackgroundProcesses
}

/** The exec tool with the user's settings; {@link exec} is the one with none. */
export function execTool(options: ExecOptions = {}): ToolDefinition<ExecInput> {
  return {...exec, execute: (input, context) => run(input, context, options)}
}

export const exec: ToolDefinition<ExecInput> = {
  name: 'exec',
  aliases: ['Bash'],
  description: [
    'Run a shell command (bash -c, or sh -c where bash is missing) in the workspace root, with no input (stdin is closed) and no terminal.',
    'The result gives the exit code (or the signal that ended it), then stdout and stderr, each labelled; a non-zero exit code is reported, not treated as a failure of the tool.',
    `The command is killed, with everything it started, after timeout_ms (default ${EXEC_DEFAULT_TIMEOUT_MS} ms, at most ${EXEC_MAX_TIMEOUT_MS} ms) or when the user cancels.`,
    'Processes it leaves running in the background (`cmd &`) are stopped when it ends.',
    `Of each stream the first and last ${EXEC_MAX_STREAM_BYTES / 2 / 1024} KB are kept. Variables that look like API keys, tokens, passwords or secrets, and URLs with credentials in them, are not passed to the command.`,
    'background: true (servers, watchers) returns an id at once, for exec_output and exec_kill; it runs until killed or the session ends, with no timeout.',
    'Use it for builds, tests, git and other programs; to read, list, search or edit files prefer the fs_* tools.',
  ].join(' '),
  inputSchema: objectSchema(
    {
      command: {
        type: 'string',
        minLength: 1,
        description: 'The command line, run by bash -c in the workspace root; pipes, redirections and && work.',
      },
      timeout_ms: {
        type: 'integer',
        minimum: 1,
        maximum: EXEC_MAX_TIMEOUT_MS,
        description: `Milliseconds before the command is killed. Defaults to ${EXEC_DEFAULT_TIMEOUT_MS}.`,
      },
      description: {
        type: 'string',
        description: 'What the command does, in a few words, shown to the user (e.g. "Run the unit tests").',
      },
      background: {
        type: 'boolean',
        description: 'Run it in the background.',
      },
    },
    ['command'],
  ),
  mutating: true,
  kind: 'execute',
  // The command, never the model's `description` of it: that is what the user approves.
  subject: (input) => (typeof input.command === 'string' ? {command: input.command, kind: 'command'} : undefined),
  describe: (input) => input.command,
  execute: (input, context) => run(input, context, {}),
}

/** Runs the command with the environment `options` allow (child-env.ts). */
async function run(input: ExecInput, context: ToolContext, options: ExecOptions): Promise<ToolResult> {
  if (context.signal.aborted) return toolError('cancelled before the command started')
  // A NUL byte cannot pass through exec(2); spawn would throw instead of reporting.
  if (input.command.includes('\0')) return toolError('the command contains a NUL byte, which no shell can receive')
  const timeoutMs = input.timeout_ms ?? EXEC_DEFAULT_TIMEOUT_MS
  const shell = (await findExecutable('bash', {cwd: context.cwd, env: process.env})) ?? '/bin/sh'
  // The sandbox, when one is in force, says how the shell must start (bubblewrap, unshare).
  const plain = [shell, '-c', input.command]
  const env = withoutCredentials(process.env, options.envPassthrough)
  if (input.background) return startInBackground(input.command, plain, env, context, options.background)
  const [file, ...args] = context.wrapCommand?.(plain, context.cwd) ?? plain
  const child = spawn(file, args, {
    cwd: context.cwd,
    // Its own process group, so a timeout or a cancel can end everything the command started.
    detached: true,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const stdout = new HeadTailBuffer(EXEC_MAX_STREAM_BYTES / 2, EXEC_MAX_STREAM_BYTES / 2)
  const stderr = new HeadTailBuffer(EXEC_MAX_STREAM_BYTES / 2, EXEC_MAX_STREAM_BYTES / 2)
  child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk))
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk))

  const graceMs = options.killGraceMs ?? KILL_GRACE_MS
  const ending = await waitForEnd(child, {graceMs, signal: context.signal, timeoutMs})
  if (ending.kind === 'failed')
    return toolError(`could not start the command with ${file}: ${ending.error.code ?? ending.error.message}`)
  const leftovers = child.pid !== undefined && (await terminateGroup(child.pid, graceMs))
  await drain(child, graceMs)

  const streams = {stderr: stderr.toString(), stdout: stdout.toString()}
  const output = render(streams)
  if (ending.kind === 'timeout')
    return toolError(`timed out after ${timeoutMs} ms; the command and everything it started were killed`, output, {
      ...streams,
      exitCode: null,
      kind: 'execute',
      timedOut: true,
    })
  if (ending.kind === 'cancelled')
    return toolError('cancelled; the command and everything it started were killed', output, {
      ...streams,
      cancelled: true,
      exitCode: null,
      kind: 'execute',
    })
  const status = ending.code === null ? `killed by signal ${ending.signal}` : `exit code: ${ending.code}`
  const note = leftovers ? '\n[processes the command left running in the background were stopped]' : ''
  return toolOk(`${status}\n${output}${note}`, {
    ...streams,
    exitCode: ending.code,
    kind: 'execute',
    ...(ending.signal ? {signal: ending.signal} : {}),
  })
}

/** Resolves when the shell exits or could not start; a timeout or an abort ends the whole group first. */
function waitForEnd(
  child: ChildProcess,
  {graceMs, signal, timeoutMs}: {graceMs: number; signal: AbortSignal; timeoutMs: number},
): Promise<Ending> {
  return new Promise((resolve) => {
    let stoppedBy: 'timeout' | 'cancelled' | undefined
    const stop = (why: 'timeout' | 'cancelled') => {
      stoppedBy ??= why
      if (child.pid !== undefined) void terminateGroup(child.pid, graceMs)
    }

    const timer = setTimeout(() => stop('timeout'), timeoutMs)
    const onAbort = () => stop('cancelled')
    signal.addEventListener('abort', onAbort, {once: true})
    const settle = (ending: Ending) => {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      resolve(ending)
    }

    child.once('error', (error: NodeJS.ErrnoException) => settle({error, kind: 'failed'}))
    child.once('exit', (code, exitSignal) =>
      settle(stoppedBy ? {kind: stoppedBy} : {code, kind: 'exited', signal: exitSignal}),
    )
    // The signal may have fired while the shell was being looked up; its event is then past.
    if (signal.aborted) onAbort()
  })
}

/**
 * Waits for the output pipes to close, so the last bytes are read; bounded, because a process
 * that left the group (setsid) may still hold them open, and then they are closed on our side.
 */
async function drain(child: ChildProcess, graceMs: number): Promise<void> {
  const streams = [child.stdout, child.stderr].filter((stream) => stream !== null)
  let timer: NodeJS.Timeout | undefined
  await Promise.race([
    Promise.all(streams.map((stream) => finished(stream).catch(() => {}))),
    new Promise((resolve) => {
      timer = setTimeout(resolve, graceMs)
    }),
  ])
  clearTimeout(timer)
  for (const stream of streams) stream.destroy()
}

function render({stderr, stdout}: {stdout: string; stderr: string}): string {
  const section = (label: string, text: string) =>
    `--- ${label} ---\n${text === '' ? '(none)' : text.replace(/\n$/, '')}`
  return `${section('stdout', stdout)}\n${section('stderr', stderr)}`
}
