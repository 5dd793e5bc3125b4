import {type ChildProcessWithoutNullStreams, spawn} from 'node:child_process'
import type {Readable} from 'node:stream'

/** The most of a hook's stderr kept in memory; the rest is read and dropped. */
export const MAX_CAPTURE_BYTES = 1024 * 1024

/**
 * How long, once the hook has exited and its process group is killed, its output pipes may
 * stay open: only a process that left the group (setsid) can still hold them.
 */
const DRAIN_GRACE_MS = 200

export interface HookProcessOptions {
  /** Handed to `/bin/sh -c` as it is; nothing is ever interpolated into it. */
  command: string
  cwd: string
  env: Record<string, string>
  stdin: string
  timeoutMs: number
  /** Aborting kills the hook (a cancelled turn). */
  signal?: AbortSignal
}

export type HookExit =
  | {kind: 'exited'; code: number; stderr: Buffer}
  | {kind: 'signaled'; signal: string}
  | {kind: 'timed_out'}
  | {kind: 'aborted'}
  | {kind: 'spawn_failed'; message: string}

/**
 * Runs one hook command and says how it ended; never rejects. The hook gets its own process
 * group, and the whole group is killed once the hook exits or runs out of time, so a
 * backgrounded child (`sleep 999 &`) can neither outlive it nor keep the agent waiting on its
 * open stdout. Starting a daemon from a hook therefore needs `setsid`.
 */
export function runHookProcess(options: HookProcessOptions): Promise<HookExit> {
  if (options.signal?.aborted) return Promise.resolve({kind: 'aborted'})
  return new Promise((resolve) => {
    let child: ChildProcessWithoutNullStreams
    try {
      child = spawn('/bin/sh', ['-c', options.command], {
        cwd: options.cwd,
        detached: true,
        env: options.env,
        stdio: 'pipe',
      })
    } catch (error) {
      // A NUL byte in the command or the environment is refused before anything starts.
      resolve({kind: 'spawn_failed', message: error instanceof Error ? error.message : String(error)})
      return
    }

    let settled = false
    let stopped: 'aborted' | 'timed_out' | undefined
    const stderr = new CappedBytes(MAX_CAPTURE_BYTES)
    child.stdout.resume()
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk))
    // A hook that never reads its stdin closes the pipe under us (EPIPE): not a failure.
    child.stdin.on('error', () => {})
    child.stdin.end(options.stdin)

    const killGroup = () => {
      if (child.pid === undefined) return
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        // ESRCH: the group is already gone.
      }
    }

    const stop = (why: 'aborted' | 'timed_out') => {
      stopped ??= why
      killGroup()
    }

    const timer = setTimeout(() => stop('timed_out'), options.timeoutMs)
    const onAbort = () => stop('aborted')
    options.signal?.addEventListener('abort', onAbort, {once: true})
    const finish = (exit: HookExit) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
      resolve(exit)
    }

    child.once('error', (error) => {
      killGroup()
      finish({kind: 'spawn_failed', message: error.message})
    })
    child.once('exit', (code, signal) => {
      killGroup()
      clearTimeout(timer)
      const why = stopped
      // 'close' waits for every holder of the pipes; with the group dead that is at once.
      void drained([child.stdout, child.stderr]).then(() => {
        child.stdout.destroy()
        child.stderr.destroy()
        if (why) finish({kind: why})
        else if (code === null) finish({kind: 'signaled', signal: signal ?? 'an unknown signal'})
        else finish({code, kind: 'exited', stderr: stderr.bytes()})
      })
    })
  })
}

function drained(streams: Readable[]): Promise<void> {
  const closed = streams.map(
    (s) => new Promise<void>((resolve) => (s.closed ? resolve() : s.once('close', () => resolve()))),
  )
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, DRAIN_GRACE_MS)
    void Promise.all(closed).then(() => {
      clearTimeout(timer)
      resolve()
    })
  })
}

/** Keeps the first `max` bytes of a stream; what follows is counted out, never buffered. */
class CappedBytes {
  private readonly chunks: Buffer[] = []
  private size = 0

  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    if (this.size >= this.max) return
    const part = chunk.subarray(0, this.max - this.size)
    this.chunks.push(part)
    this.size += part.length
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks)
  }
}
