import type {SpanJson, TraceItem, TraceJson, TracingProcessor} from '../../../src/core/tracing/index.js'

/** A processor that keeps everything it is told, in order, as JSON (what an exporter would send). */
export class Recorder implements TracingProcessor {
  readonly traces: TraceJson[] = []
  readonly spans: SpanJson[] = []

  /** `label` prefixes each log entry; processors given one `log` show the order they were told in. */
  constructor(
    private readonly label = '',
    readonly log: string[] = [],
  ) {}

  onTraceStart(trace: TraceItem): void {
    this.log.push(`${this.label}trace_start`)
    this.traces.push(trace.toJSON() as TraceJson)
  }

  onTraceEnd(): void {
    this.log.push(`${this.label}trace_end`)
  }

  onSpanStart(span: TraceItem): void {
    this.log.push(`${this.label}start ${(span.toJSON() as SpanJson).span_data.type}`)
  }

  onSpanEnd(span: TraceItem): void {
    const json = span.toJSON() as SpanJson
    this.log.push(`${this.label}end ${json.span_data.type}`)
    this.spans.push(json)
  }

  async shutdown(): Promise<void> {}

  async forceFlush(): Promise<void> {}

  ofType(type: SpanJson['span_data']['type']): SpanJson[] {
    return this.spans.filter((span) => span.span_data.type === type)
  }
}
