import type {TraceItem, TracingExporter, TracingProcessor} from './types.js'

export interface BatchTraceProcessorOptions {
  /** Items waiting to be sent; past this, new ones are dropped (and counted). Default 1000. */
  maxQueueSize?: number
  /** Items per export; a full batch is sent at once. Default 100. */
  maxBatchSize?: number
  /** The longest an item waits for its batch to fill before it is sent anyway. Default 5000 ms. */
  scheduleDelayMs?: number
}

function whole(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min)
    throw new RangeError(`BatchTraceProcessor ${name} must be a whole number >= ${min}, got ${value}`)
  return value
}

/**
 * Queues traces (at start, so a run that never ends still shows) and spans (at end), and hands
 * them to the exporter in batches, one export at a time, off the run's path. The run never waits
 * for the exporter: a collector that is slow, down or failing only fills the bounded queue, and
 * what does not fit or cannot be sent is counted in `dropped`, never retried forever or thrown.
 */
export class BatchTraceProcessor implements TracingProcessor {
  readonly #exporter: TracingExporter
  readonly #maxQueueSize: number
  readonly #maxBatchSize: number
  readonly #scheduleDelayMs: number
  // Aborts the export in flight when shutdown runs out of time.
  readonly #abort = new AbortController()
  #queue: TraceItem[] = []
  #dropped = 0
  // The size of the batch being exported.
  #inFlight = 0
  #closed = false
  #timer: NodeJS.Timeout | undefined
  #exporting: Promise<void> | undefined

  constructor(exporter: TracingExporter, options: BatchTraceProcessorOptions = {}) {
    this.#exporter = exporter
    this.#maxQueueSize = whole('maxQueueSize', options.maxQueueSize ?? 1000, 1)
    this.#maxBatchSize = whole('maxBatchSize', options.maxBatchSize ?? 100, 1)
    this.#scheduleDelayMs = whole('scheduleDelayMs', options.scheduleDelayMs ?? 5000, 0)
  }

  /**
   * Items not known to have arrived: the queue was full, the export failed, or shutdown gave up
   * on them (a batch whose answer was still on its way then counts too).
   */
  get dropped(): number {
    return this.#dropped
  }

  onTraceStart(trace: TraceItem): void {
    this.#add(trace)
  }

  onTraceEnd(): void {}

  onSpanStart(): void {}

  onSpanEnd(span: TraceItem): void {
    this.#add(span)
  }

  /** Sends everything queued, in batches; resolves when the queue is empty and no export is in flight. */
  async forceFlush(): Promise<void> {
    while ((this.#queue.length > 0 && !this.#abort.signal.aborted) || this.#exporting) {
      this.#exportNow()
      await this.#exporting
    }
  }

  /**
   * Stops taking items and sends what is queued. With `timeoutMs`, it returns by then at the
   * latest: the export in flight is aborted and what is left is dropped, so an exiting process
   * never hangs on a collector that does not answer.
   */
  async shutdown(timeoutMs?: number): Promise<void> {
    this.#closed = true
    const flushed = this.forceFlush()
    if (timeoutMs === undefined) return flushed
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs)
    })
    await Promise.race([flushed, timedOut])
    clearTimeout(timer)
    if (this.#queue.length === 0 && !this.#exporting) return
    // Counted now, not when the aborted export settles: the caller reads `dropped` next, and an
    // exporter that ignores the signal may never settle.
    this.#abort.abort()
    this.#dropped += this.#queue.length + this.#inFlight
    this.#queue = []
  }

  #add(item: TraceItem): void {
    if (this.#closed || this.#queue.length >= this.#maxQueueSize) {
      this.#dropped++
      return
    }

    this.#queue.push(item)
    if (this.#queue.length >= this.#maxBatchSize) this.#exportNow()
    else this.#schedule()
  }

  #schedule(): void {
    if (this.#timer || this.#exporting) return
    this.#timer = setTimeout(() => this.#exportNow(), this.#scheduleDelayMs)
    // A pending batch must not keep a finished program alive: shutdown() is how to wait for it.
    this.#timer.unref()
  }

  #exportNow(): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
    this.#exporting ??= this.#drain().finally(() => {
      this.#exporting = undefined
      if (this.#queue.length > 0 && !this.#abort.signal.aborted) this.#schedule()
    })
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0 && !this.#abort.signal.aborted) {
      const batch = this.#queue.splice(0, this.#maxBatchSize)
      this.#inFlight = batch.length
      try {
        await this.#exporter.export(batch, this.#abort.signal)
      } catch {
        // After the abort, shutdown has counted this batch already.
        if (!this.#abort.signal.aborted) this.#dropped += batch.length
      } finally {
        this.#inFlight = 0
      }
    }
  }
}
