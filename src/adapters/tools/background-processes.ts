import {type ChildProcess, spawn} from 'node:child_process'

import {KILL_GRACE_MS, terminateGroup} from '@hanzo-dev/sdk'

import {HeadTailBuffer} from './head-tail-buffer.js'

/** Unread output kept per process between two reads: the first and the last half of it. */
export const BACKGROUND_MAX_UNREAD_BYTES = 64 * 1024

/** How a background command ended; absent while it runs. */
export type BackgroundExit =
  {code: number | null; signal: NodeJS.Signals | null} | {error: string; code: null; signal: null}

/** One background command as `/bashes` and the tools list it. */
export interface BackgroundSummary {
  id: string
  command: string
  pid?: number
  exit?: BackgroundExit
}

/** What one read returns: the output written since the previous read (stdout and stderr as they came). */
export interface BackgroundRead extends BackgroundSummary {
  output: string
}

export interface BackgroundStart {
  /** The command as the model wrote it (what is listed). */
  command: string
  /** What to spawn: the shell, wrapped by the sandbox when one is in force. */
  argv: string[]
  cwd: string
  env: NodeJS.ProcessEnv
  /** Called once it has ended (the sandbox's sweep); what it says is appended to the output. */
  finish?: () => Promise<string | undefined>
}

interface Entry extends BackgroundSummary {
  child: ChildProcess
  unread: HeadTailBuffer
  ended: Promise<void>
  /** Resolvers of reads waiting for something new. */
  waiting: Array<() => void>
}

/**
 * The commands a session runs in the background (`exec` with `background: true`). Each leads its
 * own process group, so ending one ends everything it started; what is still running when the
 * session closes is ended, and if hanzo-dev exits without closing it, killed on the way out.
 */
export class BackgroundProcesses {
  private readonly entries = new Map<string, Entry>()
  private counter = 0
  private listening = false
  private readonly onExit = () => {
    for (const entry of this.entries.values())
      if (!entry.exit && entry.pid !== undefined) {
        try {
          process.kill(-entry.pid, 'SIGKILL')
        } catch {
          // Already gone.
        }
      }
  }

  constructor(private readonly graceMs = KILL_GRACE_MS) {}

  start(spec: BackgroundStart): BackgroundSummary {
    const [file, ...args] = spec.argv
    const child = spawn(file, args, {
      cwd: spec.cwd,
      detached: true,
      env: spec.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.counter += 1
    const id = `bg${this.counter}`
    let markEnded = () => {}
    const entry: Entry = {
      child,
      command: spec.command,
      ended: new Promise<void>((resolve) => {
        markEnded = resolve
      }),
      id,
      pid: child.pid,
      unread: this.buffer(),
      waiting: [],
    }
    const push = (chunk: Buffer) => {
      entry.unread.push(chunk)
      this.wake(entry)
    }

    child.stdout?.on('data', push)
    child.stderr?.on('data', push)
    const end = async (exit: BackgroundExit) => {
      if (entry.exit) return
      entry.exit = exit
      // What the shell left running in its group goes with it, as with a plain exec.
      if (child.pid !== undefined) await terminateGroup(child.pid, this.graceMs)
      const note = await spec.finish?.().catch((error: Error) => `[sandbox: ${error.message}]`)
      if (note) push(Buffer.from(`\n${note}\n`))
      markEnded()
      this.wake(entry)
    }

    child.once('error', (error: NodeJS.ErrnoException) =>
      end({code: null, error: `could not start: ${error.code ?? error.message}`, signal: null}),
    )
    child.once('exit', (code, signal) => end({code, signal}))
    if (!this.listening) process.once('exit', this.onExit)
    this.listening = true
    this.entries.set(id, entry)
    return summary(entry)
  }

  /** The output since the last read; when there is none yet and it runs, waits up to `waitMs` for some. */
  async read(id: string, waitMs = 0): Promise<BackgroundRead | undefined> {
    const entry = this.entries.get(id)
    if (!entry) return undefined
    if (waitMs > 0 && entry.unread.size === 0 && !entry.exit) {
      let timer: NodeJS.Timeout | undefined
      await new Promise<void>((resolve) => {
        entry.waiting.push(resolve)
        timer = setTimeout(resolve, waitMs)
      })
      clearTimeout(timer)
    }

    const output = entry.unread.toString()
    entry.unread = this.buffer()
    return {...summary(entry), output}
  }

  /** Ends the command and everything it started; undefined for an id never given. */
  async kill(id: string): Promise<BackgroundSummary | undefined> {
    const entry = this.entries.get(id)
    if (!entry) return undefined
    if (!entry.exit && entry.pid !== undefined) {
      await terminateGroup(entry.pid, this.graceMs)
      await entry.ended
    }

    return summary(entry)
  }

  list(): BackgroundSummary[] {
    return [...this.entries.values()].map((entry) => summary(entry))
  }

  /** Ends every command still running: the session is closing. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.kill(id)))
    process.removeListener('exit', this.onExit)
    this.listening = false
  }

  private buffer(): HeadTailBuffer {
    return new HeadTailBuffer(BACKGROUND_MAX_UNREAD_BYTES / 2, BACKGROUND_MAX_UNREAD_BYTES / 2)
  }

  private wake(entry: Entry): void {
    for (const resolve of entry.waiting.splice(0)) resolve()
  }
}

function summary({command, exit, id, pid}: Entry): BackgroundSummary {
  return {command, id, ...(pid === undefined ? {} : {pid}), ...(exit ? {exit} : {})}
}

/** One line of how it stands: `running`, `exit code 0`, `killed by SIGTERM`, or why it never started. */
export function backgroundStatus({exit}: BackgroundSummary): string {
  if (!exit) return 'running'
  if ('error' in exit) return exit.error
  return exit.code === null ? `killed by ${exit.signal}` : `exit code ${exit.code}`
}
