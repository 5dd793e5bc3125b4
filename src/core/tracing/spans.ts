import {randomBytes} from 'node:crypto'

import type {SpanData, SpanError, SpanJson, TraceItem, TraceJson, TracingProcessor} from './types.js'

type Notification = 'onTraceStart' | 'onTraceEnd' | 'onSpanStart' | 'onSpanEnd'

const ignore = () => {}

/** Each processor in the order it was added; one that throws or rejects is skipped, never fatal to the run. */
function notify(processors: readonly TracingProcessor[], notification: Notification, item: TraceItem): void {
  for (const processor of processors) {
    try {
      const pending = processor[notification](item)
      if (pending instanceof Promise) pending.catch(ignore)
    } catch {
      // A broken processor loses its own data; the run and the other processors go on.
    }
  }
}

const now = () => new Date().toISOString()

/**
 * One run (or one workflow of runs) from start to end. It keeps the processors it started with,
 * so every span of it reaches the same processors even when the list changes mid-run.
 */
export class Trace implements TraceItem {
  readonly object = 'trace'
  readonly id = `trace_${randomBytes(16).toString('hex')}`

  constructor(
    readonly workflowName: string,
    readonly processors: readonly TracingProcessor[],
    readonly groupId?: string,
    readonly metadata?: Record<string, string>,
  ) {}

  start(): this {
    notify(this.processors, 'onTraceStart', this)
    return this
  }

  end(): void {
    notify(this.processors, 'onTraceEnd', this)
  }

  /** A span of this trace, started now; `parent` absent makes it a root span. */
  startSpan<D extends SpanData>(data: D, parent?: Span): Span<D> {
    const span = new Span(this, parent?.id ?? null, data)
    notify(this.processors, 'onSpanStart', span)
    return span
  }

  toJSON(): TraceJson {
    return {
      group_id: this.groupId ?? null,
      id: this.id,
      metadata: this.metadata ?? null,
      object: 'trace',
      workflow_name: this.workflowName,
    }
  }
}

/** One operation inside a trace. `data` may be filled in until `end()`; processors get the span at start and at end. */
export class Span<D extends SpanData = SpanData> implements TraceItem {
  readonly object = 'trace.span'
  readonly id = `span_${randomBytes(12).toString('hex')}`
  readonly startedAt = now()
  endedAt: string | null = null
  error: SpanError | null = null

  constructor(
    readonly trace: Trace,
    readonly parentId: string | null,
    readonly data: D,
  ) {}

  /** Ends the span once; later calls do nothing (a span ends on the first of success, error or abort). */
  end(error?: SpanError): void {
    if (this.endedAt !== null) return
    if (error) this.error = error
    this.endedAt = now()
    notify(this.trace.processors, 'onSpanEnd', this)
  }

  toJSON(): SpanJson {
    return {
      ended_at: this.endedAt,
      error: this.error,
      id: this.id,
      object: 'trace.span',
      parent_id: this.parentId,
      span_data: this.data,
      started_at: this.startedAt,
      trace_id: this.trace.id,
    }
  }
}
