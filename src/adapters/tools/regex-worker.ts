import {Worker} from 'node:worker_threads'

/**
 * A model's regular expression, run over texts line by line in a worker thread. JavaScript's
 * engine backtracks: `(a+)+b` over a long line of `a`s takes longer than the universe's age, and
 * nothing can stop a RegExp on the thread running it. In a worker the main thread stays free
 * (Ctrl-C is handled, the turn goes on) and the thread is terminated when its time is up.
 *
 * Texts go in batches (one message each way per batch, not per text, which would cost more than
 * matching small files), answered in order, so the caller keeps reading files while the worker
 * matches. Threads are pooled: one is started on first use, not at start-up, and reused.
 */

/** The first match on one line of a text: `line` counts from 0, the rest are offsets in the text. */
export interface LineMatch {
  line: number
  /** Where the line starts and ends (without its `\n` or `\r\n`). */
  start: number
  end: number
  /** Where the match starts. */
  at: number
}

/** The regex used up its time; the thread running it was stopped. */
export class RegexTimeoutError extends Error {
  constructor(
    readonly limitMs: number,
    /** Which text of the batch it was matching then. */
    readonly index: number,
  ) {
    super(`the regular expression ran for more than ${limitMs / 1000} s`)
    this.name = 'RegexTimeoutError'
  }
}

export interface RegexWorkerOptions {
  /** Worker time, summed over every text, before the regex is stopped. */
  limitMs: number
  signal: AbortSignal
}

interface Pending {
  resolve(matches: LineMatch[][]): void
  reject(error: unknown): void
}

type Request = {pattern: string; flags: string; at: Int32Array<SharedArrayBuffer>} | {texts: readonly string[]}
type Reply = {found: number[][]; ms: number} | {error: string}

/** Idle threads, kept for the next search; unreferenced, so they never keep the process alive. */
const idle: Worker[] = []
const MAX_IDLE = 2

/** One regex on one thread, for one search: {@link match} each text, then {@link close}. */
export class RegexWorker {
  private readonly pending: Pending[] = []
  private usedMs = 0
  private timer: NodeJS.Timeout | undefined
  private failure: unknown
  /** Shared with the thread: the index of the text it is matching. */
  private readonly at = new Int32Array(new SharedArrayBuffer(4))
  private readonly onAbort = () => this.fail(this.options.signal.reason)
  private readonly onMessage = (reply: Reply) => this.answer(reply)
  private readonly onError = (error: Error) => this.fail(error)
  private readonly onExit = () => this.fail(new Error('the regex worker stopped'))

  private constructor(
    private readonly worker: Worker,
    private readonly options: RegexWorkerOptions,
  ) {
    worker.on('message', this.onMessage).on('error', this.onError).on('exit', this.onExit)
    options.signal.addEventListener('abort', this.onAbort, {once: true})
  }

  /** `pattern` and `flags` must already compile on this thread (the caller reports a bad pattern). */
  static open(pattern: string, flags: string, options: RegexWorkerOptions): RegexWorker {
    const worker =
      idle.pop() ??
      new Worker(`(${serve.toString()})(require('node:worker_threads').parentPort)`, {
        eval: true,
        name: 'hanzo-dev regex',
      })
    const opened = new RegexWorker(worker, options)
    opened.post({at: opened.at, flags, pattern})
    if (options.signal.aborted) opened.onAbort()
    return opened
  }

  /** For each text, the first match on each of its lines; batches are answered in the order given. */
  match(texts: readonly string[]): Promise<LineMatch[][]> {
    if (this.failure !== undefined) return Promise.reject(this.failure)
    const answer = new Promise<LineMatch[][]>((resolve, reject) => this.pending.push({reject, resolve}))
    // Handled here: when one batch fails every later one fails too, and the caller awaits only the first.
    answer.catch(() => {})
    this.post({texts})
    if (this.pending.length === 1) this.arm()
    return answer
  }

  /** Gives the thread back to the pool (or ends it); texts still being matched are dropped. */
  close(): void {
    this.options.signal.removeEventListener('abort', this.onAbort)
    clearTimeout(this.timer)
    // Only these: Worker keeps listeners of its own on itself.
    this.worker.off('message', this.onMessage).off('error', this.onError).off('exit', this.onExit)
    if (this.failure === undefined && this.pending.length === 0 && idle.length < MAX_IDLE) {
      this.worker.unref()
      idle.push(this.worker)
    } else {
      void this.worker.terminate()
    }
  }

  private answer(reply: Reply): void {
    const next = this.pending.shift()
    if (!next) return
    clearTimeout(this.timer)
    if ('error' in reply) {
      next.reject(new Error(reply.error))
    } else {
      this.usedMs += reply.ms
      next.resolve(reply.found.map((found) => toMatches(found)))
    }

    if (this.pending.length > 0) this.arm()
    else this.worker.unref()
  }

  /** While a text is out, the wall clock bounds what is left of the worker's time. */
  private arm(): void {
    this.worker.ref()
    const timeUp = () => this.fail(new RegexTimeoutError(this.options.limitMs, Atomics.load(this.at, 0)))
    this.timer = setTimeout(timeUp, Math.max(0, this.options.limitMs - this.usedMs))
  }

  private post(request: Request): void {
    this.worker.postMessage(request)
  }

  private fail(error: unknown): void {
    if (this.failure !== undefined) return
    this.failure = error
    clearTimeout(this.timer)
    void this.worker.terminate()
    for (const waiting of this.pending.splice(0)) waiting.reject(error)
  }
}

function toMatches(found: number[]): LineMatch[] {
  const matches: LineMatch[] = []
  for (let i = 0; i < found.length; i += 4)
    matches.push({at: found[i + 3], end: found[i + 2], line: found[i], start: found[i + 1]})
  return matches
}

/**
 * The worker thread's whole program, run from its source text (so it is the same from the
 * TypeScript sources under test and from the build): it must not use anything from outside itself.
 * Lines are split at `\n`, a `\r` before it dropped; a final `\n` does not start another line.
 */
function serve(port: {
  on(event: 'message', listener: (request: Request) => void): void
  postMessage(reply: Reply): void
}): void {
  let regex = /$^/
  let at = new Int32Array(new SharedArrayBuffer(4))
  port.on('message', (request) => {
    if ('pattern' in request) {
      regex = new RegExp(request.pattern, request.flags)
      at = request.at
      return
    }

    const started = performance.now()
    const found: number[][] = []
    try {
      for (const [index, text] of request.texts.entries()) {
        Atomics.store(at, 0, index)
        const lines: number[] = []
        for (let start = 0, line = 0; start < text.length; line++) {
          const newline = text.indexOf('\n', start)
          const next = newline === -1 ? text.length : newline + 1
          let end = newline === -1 ? text.length : newline
          if (end > start && text.charCodeAt(end - 1) === 13) end--
          const match = regex.exec(text.slice(start, end))
          if (match) lines.push(line, start, end, match.index)
          start = next
        }

        found.push(lines)
      }
    } catch (error) {
      port.postMessage({error: (error as Error).message})
      return
    }

    port.postMessage({found, ms: performance.now() - started})
  })
}
