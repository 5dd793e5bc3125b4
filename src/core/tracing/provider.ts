import {AsyncLocalStorage} from 'node:async_hooks'

import type {Span} from './spans.js'
import type {TracingProcessor} from './types.js'

/**
 * The process-wide tracing switchboard, as in hanzo-agent / openai-agents: runs always make
 * traces, but only for the processors added here, so with none (the default) nothing is built
 * or sent. The list is replaced, never mutated: a running trace keeps the list it started with.
 */
let processors: readonly TracingProcessor[] = []
let disabled: boolean | undefined

/** Adds a processor after the ones already there; it sees traces started from now on. */
export function addTraceProcessor(processor: TracingProcessor): void {
  processors = [...processors, processor]
}

/** Replaces every processor (the old ones are not shut down: their owner does that). */
export function setTraceProcessors(list: readonly TracingProcessor[]): void {
  processors = [...list]
}

/** `true` stops making traces; it wins over HANZO_TRACING_DISABLED either way. */
export function setTracingDisabled(value: boolean): void {
  disabled = value
}

export function isTracingDisabledByEnv(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env.HANZO_TRACING_DISABLED?.trim().toLowerCase()
  return value === '1' || value === 'true'
}

let environment: () => Readonly<Record<string, string | undefined>> = () => ({})

/**
 * Where HANZO_TRACING_DISABLED is read, each time a trace starts: it is the library's switch
 * too (the SDK's contract), and a library caller has no place to hand it in, so the library
 * entry and the CLI point it at the process's environment (the core reads no globals).
 */
export function readTracingEnvironmentFrom(read: () => Readonly<Record<string, string | undefined>>): void {
  environment = read
}

/**
 * The processors a new trace reports to: none when tracing is off. The empty list is checked
 * first so an untraced run pays one comparison.
 */
export function activeTraceProcessors(): readonly TracingProcessor[] {
  if (processors.length === 0) return processors
  return (disabled ?? isTracingDisabledByEnv(environment())) ? [] : processors
}

// The span whose work is running now, so a run started inside a tool call (an agent used as a
// tool) joins the caller's trace under that call instead of starting a trace of its own.
const current = new AsyncLocalStorage<Span>()

export function currentSpan(): Span | undefined {
  return current.getStore()
}

export function withSpan<T>(span: Span, fn: () => T): T {
  return current.run(span, fn)
}
