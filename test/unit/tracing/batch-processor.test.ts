import {describe, expect, it} from 'vitest'

import {BatchTraceProcessor, Trace, type TraceItem, type TracingExporter} from '../../../src/core/tracing/index.js'

/** An exporter whose exports settle when the test says (or at once), keeping every batch. */
class TestExporter implements TracingExporter {
  readonly batches: TraceItem[][] = []
  readonly signals: AbortSignal[] = []
  #pending: Array<{resolve(): void; reject(error: Error): void}> = []
  #waiters: Array<() => void> = []

  constructor(private readonly mode: 'ok' | 'hold' | 'fail' | 'throw' = 'ok') {}

  export(items: readonly TraceItem[], signal?: AbortSignal): Promise<void> {
    if (this.mode === 'throw') throw new Error('exporter bug')
    this.batches.push([...items])
    this.signals.push(signal!)
    for (const wake of this.#waiters.splice(0)) wake()
    if (this.mode === 'ok') return Promise.resolve()
    if (this.mode === 'fail') return Promise.reject(new Error('collector down'))
    return new Promise((resolve, reject) => {
      this.#pending.push({reject, resolve})
      signal?.addEventListener('abort', () => reject(new Error('aborted')))
    })
  }

  /** Lets every held export succeed. */
  release(): void {
    for (const {resolve} of this.#pending.splice(0)) resolve()
  }

  /** Resolves when an export has been started. */
  async started(count = 1): Promise<void> {
    while (this.batches.length < count) await new Promise<void>((resolve) => this.#waiters.push(resolve))
  }

  sizes(): number[] {
    return this.batches.map((batch) => batch.length)
  }
}

const NEVER = 3_600_000
const trace = new Trace('w', [])
const items = (count: number) => Array.from({length: count}, () => trace.startSpan({model: 'm', type: 'generation'}))
const feed = (processor: BatchTraceProcessor, count: number) => {
  for (const span of items(count)) processor.onSpanEnd(span)
}

describe('BatchTraceProcessor', () => {
  it('sends full batches at once and the rest on flush, in batches of maxBatchSize', async () => {
    const exporter = new TestExporter()
    const processor = new BatchTraceProcessor(exporter, {maxBatchSize: 2, scheduleDelayMs: NEVER})
    feed(processor, 5)
    await exporter.started()
    await processor.forceFlush()
    expect(exporter.sizes()).toEqual([2, 2, 1])
    expect(processor.dropped).toBe(0)
  })

  it('queues traces at start and spans at end, nothing else', async () => {
    const exporter = new TestExporter()
    const processor = new BatchTraceProcessor(exporter, {scheduleDelayMs: NEVER})
    const run = new Trace('w', [processor]).start()
    const span = run.startSpan({model: 'm', type: 'generation'})
    span.end()
    run.end()
    await processor.forceFlush()
    expect(exporter.batches).toEqual([[run, span]])
  })

  it('sends a partial batch after scheduleDelayMs without a flush', async () => {
    const exporter = new TestExporter()
    feed(new BatchTraceProcessor(exporter, {scheduleDelayMs: 1}), 1)
    await exporter.started()
    expect(exporter.sizes()).toEqual([1])
  })

  it('holds at most maxQueueSize items while an export hangs, counting the ones it drops', async () => {
    const exporter = new TestExporter('hold')
    const processor = new BatchTraceProcessor(exporter, {maxBatchSize: 1, maxQueueSize: 3, scheduleDelayMs: NEVER})
    feed(processor, 6)
    // One in flight, three queued, two dropped.
    expect(exporter.sizes()).toEqual([1])
    expect(processor.dropped).toBe(2)
    const flushed = processor.forceFlush()
    for (let n = 1; n <= 4; n++) {
      await exporter.started(n)
      exporter.release()
    }

    await flushed
    expect(exporter.sizes()).toEqual([1, 1, 1, 1])
    expect(processor.dropped).toBe(2)
  })

  it('counts a failed or throwing export as dropped and goes on', async () => {
    for (const mode of ['fail', 'throw'] as const) {
      const processor = new BatchTraceProcessor(new TestExporter(mode), {maxBatchSize: 2, scheduleDelayMs: NEVER})
      feed(processor, 3)
      await processor.forceFlush()
      expect(processor.dropped).toBe(3)
    }
  })

  it('shutdown with a timeout returns while the exporter hangs: the export is aborted and what is left dropped', async () => {
    const exporter = new TestExporter('hold')
    const processor = new BatchTraceProcessor(exporter, {maxBatchSize: 2, scheduleDelayMs: NEVER})
    feed(processor, 5)
    await processor.shutdown(20)
    expect(exporter.signals[0].aborted).toBe(true)
    expect(processor.dropped).toBe(5)
    // After shutdown nothing is taken.
    feed(processor, 1)
    expect(processor.dropped).toBe(6)
    expect(exporter.sizes()).toEqual([2])
  })

  it('shutdown sends what is queued when the exporter answers', async () => {
    const exporter = new TestExporter()
    const processor = new BatchTraceProcessor(exporter, {scheduleDelayMs: NEVER})
    feed(processor, 3)
    await processor.shutdown(60_000)
    expect(exporter.sizes()).toEqual([3])
    expect(processor.dropped).toBe(0)
  })

  it('rejects options that are not whole numbers in range', () => {
    const exporter = new TestExporter()
    expect(() => new BatchTraceProcessor(exporter, {maxQueueSize: 0})).toThrow(RangeError)
    expect(() => new BatchTraceProcessor(exporter, {maxBatchSize: 1.5})).toThrow(/maxBatchSize/)
    expect(() => new BatchTraceProcessor(exporter, {scheduleDelayMs: -1})).toThrow(/scheduleDelayMs/)
  })
})
