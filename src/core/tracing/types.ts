/**
 * What a trace and its spans say, as they go over the wire (the openai-agents / hanzo-agent
 * format). Span data names what ran and how it went, never what it read or wrote: no prompts,
 * replies, tool inputs or outputs, file contents or credentials. A collector sees the shape of
 * a run (which model, which tools, how long, how many tokens, what failed), not its content.
 */

export interface AgentSpanData {
  type: 'agent'
  name: string
  model: string
  /** The names of the tools the agent was given. */
  tools: string[]
}

export interface GenerationSpanData {
  type: 'generation'
  model: string
  usage?: {input_tokens: number; output_tokens: number}
  stop_reason?: string
}

export interface FunctionSpanData {
  type: 'function'
  /** The tool's name. */
  name: string
  is_error?: boolean
  /** The length of the result's output in characters (the output itself is never kept). */
  output_chars?: number
}

export type SpanData = AgentSpanData | GenerationSpanData | FunctionSpanData

/** Why a span failed: a short message and machine-readable details, nothing the run read. */
export interface SpanError {
  message: string
  data?: Record<string, string | number | boolean>
}

export interface TraceJson {
  object: 'trace'
  id: string
  workflow_name: string
  group_id: string | null
  metadata: Record<string, string> | null
}

export interface SpanJson {
  object: 'trace.span'
  id: string
  trace_id: string
  parent_id: string | null
  /** ISO 8601. */
  started_at: string
  ended_at: string | null
  span_data: SpanData
  error: SpanError | null
}

/** Anything a processor receives: serializes to TraceJson or SpanJson. */
export interface TraceItem {
  readonly object: 'trace' | 'trace.span'
  toJSON(): TraceJson | SpanJson
}

/**
 * Told about each trace and span as it starts and ends, in the order processors were added.
 * The `on*` calls happen inside the run: they must return at once (queue, don't send). A
 * processor that throws or rejects is ignored; it never breaks the run.
 */
export interface TracingProcessor {
  onTraceStart(trace: TraceItem): void | Promise<void>
  onTraceEnd(trace: TraceItem): void | Promise<void>
  onSpanStart(span: TraceItem): void | Promise<void>
  onSpanEnd(span: TraceItem): void | Promise<void>
  /** Sends what is queued and stops; after `timeoutMs` gives up on what is left. */
  shutdown(timeoutMs?: number): Promise<void>
  /** Sends what is queued. */
  forceFlush(): Promise<void>
}

/**
 * Sends a batch somewhere. Resolves when the batch arrived; rejects when it was given up on
 * (the processor counts it as dropped). Should stop early when `signal` aborts.
 */
export interface TracingExporter {
  export(items: readonly TraceItem[], signal?: AbortSignal): Promise<void>
}
