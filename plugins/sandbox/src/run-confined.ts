import {spawn} from 'node:child_process'
import {constants} from 'node:os'

const LEFTOVER_GRACE_MS = 2000

export interface ConfinedRunOptions {
  cwd: string
  env: Readonly<Record<string, string | undefined>>
  /** Keep the output for the caller instead of passing it straight through. */
  capture: boolean
}

export interface ConfinedRun {
  /** The command's exit code, or 128 + the signal number when a signal ended it (as shells say). */
  exitCode: number
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/**
 * Runs an argv (already wrapped by the sandbox) the way the agent's exec does: stdin closed, in a
 * new session and process group (so it has no controlling terminal to inject input into), and
 * that whole group ended when the command ends or when the user interrupts (Ctrl-C).
 */
export function runConfined(argv: string[], options: ConfinedRunOptions): Promise<ConfinedRun> {
  return new Promise((resolve, reject) => {
    const output = options.capture ? 'pipe' : 'inherit'
    const child = spawn(argv[0], argv.slice(1), {
      cwd: options.cwd,
      detached: true,
      env: options.env,
      stdio: ['ignore', output, output],
    })
    const stdout: Buffer[] = []
    const stderr: Buffer[] = []
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk))
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk))
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal)
      } catch {
        // The group is gone already.
      }
    }

    // A first interrupt asks the command to stop, a second one kills it.
    let interrupts = 0
    const interrupt = () => signalGroup(interrupts++ === 0 ? 'SIGTERM' : 'SIGKILL')
    const forwarded = ['SIGINT', 'SIGTERM'] as const
    for (const s of forwarded) process.on(s, interrupt)
    child.once('error', (error) => {
      for (const s of forwarded) process.off(s, interrupt)
      reject(error)
    })
    // What it left running in the background goes with it: asked first, killed after a grace.
    let straggling: NodeJS.Timeout | undefined
    child.once('exit', () => {
      signalGroup('SIGTERM')
      straggling = setTimeout(() => signalGroup('SIGKILL'), LEFTOVER_GRACE_MS)
    })
    child.once('close', (code, signal) => {
      clearTimeout(straggling)
      for (const s of forwarded) process.off(s, interrupt)
      resolve({
        exitCode: code ?? 128 + (signal ? constants.signals[signal] : 0),
        signal,
        stderr: Buffer.concat(stderr).toString('utf8'),
        stdout: Buffer.concat(stdout).toString('utf8'),
      })
    })
  })
}
