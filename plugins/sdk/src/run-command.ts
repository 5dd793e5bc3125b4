import {execFile} from 'node:child_process'

export interface RunCommandOptions {
  cwd: string
  env: Readonly<Record<string, string | undefined>>
  /** Aborting kills the child (pass the host's signal, so nothing outlives the host's patience). */
  signal?: AbortSignal
  timeoutMs: number
}

export interface CommandResult {
  /** True when the process ran and exited 0. */
  ok: boolean
  exitCode: number | null
  stdout: string
  stderr: string
  /** Why the process did not run or did not exit 0, in one line fit for a doctor check. */
  failure?: string
}

const MAX_OUTPUT_BYTES = 1024 * 1024

/**
 * Runs `file` with `args` directly, never through a shell, so no argument is ever
 * interpreted. Never rejects: a missing binary, a timeout, an abort or a non-zero exit all
 * come back as `ok: false` with a one-line `failure`.
 */
export function runCommand(file: string, args: readonly string[], options: RunCommandOptions): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        cwd: options.cwd,
        encoding: 'utf8',
        env: options.env,
        killSignal: 'SIGKILL',
        maxBuffer: MAX_OUTPUT_BYTES,
        signal: options.signal,
        timeout: options.timeoutMs,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (!error) {
          resolve({exitCode: 0, ok: true, stderr, stdout})
          return
        }

        const code = typeof error.code === 'number' ? error.code : null
        resolve({exitCode: code, failure: describeFailure(file, error, stderr, options), ok: false, stderr, stdout})
      },
    )
  })
}

type ExecError = Error & {code?: number | string | null; killed?: boolean; signal?: NodeJS.Signals | null}

function describeFailure(file: string, error: ExecError, stderr: string, options: RunCommandOptions): string {
  if (error.code === 'ENOENT') return `${file}: not found`
  if (error.code === 'EACCES') return `${file}: permission denied`
  if (options.signal?.aborted || error.name === 'AbortError') return `${file}: stopped (the host stopped waiting)`
  if (error.killed && error.signal) return `${file}: timed out after ${options.timeoutMs} ms`
  const said = firstLine(stderr)
  if (said) return said
  if (error.signal) return `${file}: killed by ${error.signal}`
  return typeof error.code === 'number'
    ? `${file}: exited with code ${error.code}`
    : `${file}: ${firstLine(error.message)}`
}

/** The first non-empty line of a process's output, trimmed and capped for one-line display. */
export function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? ''
  return line.trim().slice(0, 300)
}

/** One word for sh, whatever it holds: as it is when nothing in it is special, else single-quoted. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}
