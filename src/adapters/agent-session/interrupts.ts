/**
 * Ctrl-C for a session and its children: SIGINT, the key at a permission prompt (the terminal
 * is raw then, so no signal), or the caller's signal cancels the run in progress; a second
 * SIGINT while it is already cancelled exits at once (130). Each outermost run gets a fresh
 * interrupt, so a session goes on after a cancelled run; a child run inside a parent's shares
 * the parent's. The SIGINT handler is installed only while a run is going.
 */
export class RunInterrupts {
  private current = new AbortController()
  private depth = 0
  private readonly caller: AbortSignal | undefined

  /** What the terminal prompter aborts and reads (the run in progress's interrupt). */
  readonly handle: Pick<AbortController, 'abort' | 'signal'>

  constructor(signal: AbortSignal | undefined) {
    const current = () => this.current
    this.handle = {
      abort: (reason?: unknown) => current().abort(reason),
      get signal() {
        return current().signal
      },
    }
    this.caller = signal
    signal?.addEventListener('abort', () => this.current.abort(), {once: true})
  }

  /** A run starts: its signal, and `end` to call when it is over. `run`: that run's own interrupt (the interactive session's Esc). */
  begin(run?: AbortSignal): {signal: AbortSignal; end(): void} {
    if (this.depth++ === 0) {
      if (this.caller?.aborted) this.current.abort()
      else if (this.current.signal.aborted) this.current = new AbortController()
      process.on('SIGINT', this.onSigint)
    }

    const controller = this.current
    const forward = () => controller.abort()
    if (run?.aborted) forward()
    else run?.addEventListener('abort', forward, {once: true})
    return {
      end: () => {
        run?.removeEventListener('abort', forward)
        if (--this.depth === 0) process.off('SIGINT', this.onSigint)
      },
      signal: controller.signal,
    }
  }

  private readonly onSigint = () => (this.current.signal.aborted ? process.exit(130) : this.current.abort())
}
