import type {ApiClient, ModelToolSpec, ToolExecutor} from '../agent/types.js'
import {ModelError} from '../agent/types.js'
import {activeTraceProcessors, currentSpan, withSpan} from './provider.js'
import {type Span, Trace} from './spans.js'
import type {AgentSpanData, FunctionSpanData, GenerationSpanData, SpanError} from './types.js'

/** The loop's two ports, which the spans are taken from: every model request and every tool call goes through them. */
export interface TracedPorts {
  client: ApiClient
  executor: ToolExecutor & {runsAlone?(name: string): boolean}
}

export interface AgentRunTracer {
  /** Runs `fn` with ports that record a span per model request and per tool call, then ends the agent span (and the trace it opened). */
  run<R>(ports: TracedPorts, fn: (ports: TracedPorts) => Promise<R>): Promise<R>
}

const MAX_ERROR_MESSAGE = 300

/**
 * The spans of one agent run: an agent span (in a new trace named after the agent, or, for a
 * run started inside a traced tool call, under that call in its trace), a generation span per
 * model request and a function span per tool call, both children of the agent span.
 *
 * Undefined when tracing is off, so an untraced run builds nothing and its ports stay as they were.
 */
export function traceAgentRun(
  agent: {name: string; model: string},
  tools: readonly ModelToolSpec[],
  groupId?: string,
): AgentRunTracer | undefined {
  const caller = currentSpan()
  const processors = caller ? caller.trace.processors : activeTraceProcessors()
  if (processors.length === 0) return undefined
  const trace = caller?.trace ?? new Trace(agent.name, processors, groupId).start()
  const span = trace.startSpan<AgentSpanData>(
    {model: agent.model, name: agent.name, tools: tools.map((t) => t.name), type: 'agent'},
    caller,
  )
  return {
    async run(ports, fn) {
      try {
        const result = await fn({
          client: tracedClient(ports.client, span),
          executor: tracedExecutor(ports.executor, span),
        })
        span.end()
        return result
      } catch (error) {
        span.end(spanError(error))
        throw error
      } finally {
        if (!caller) trace.end()
      }
    },
  }
}

function tracedClient(client: ApiClient, agentSpan: Span): ApiClient {
  return overriding(client, {
    async *sendMessage(messages, tools, options) {
      const span = agentSpan.trace.startSpan<GenerationSpanData>({model: options.model, type: 'generation'}, agentSpan)
      let failure: SpanError | undefined
      try {
        for await (const event of client.sendMessage(messages, tools, options)) {
          if (event.type === 'usage') {
            const usage = (span.data.usage ??= {input_tokens: 0, output_tokens: 0})
            usage.input_tokens += event.usage.inputTokens
            usage.output_tokens += event.usage.outputTokens
          } else if (event.type === 'message_stop') {
            span.data.stop_reason = event.stopReason
          } else if (event.type === 'error') {
            failure = spanError(event.error)
          }

          yield event
        }
      } catch (error) {
        failure = spanError(error)
        throw error
      } finally {
        // Also when the loop stops reading (an error event, an abort): the request is over.
        span.end(failure)
      }
    },
  })
}

function tracedExecutor(executor: TracedPorts['executor'], agentSpan: Span): TracedPorts['executor'] {
  return overriding(executor, {
    async execute(name, input, sessionId, signal) {
      const span = agentSpan.trace.startSpan<FunctionSpanData>({name, type: 'function'}, agentSpan)
      try {
        const result = await withSpan(span, () => executor.execute(name, input, sessionId, signal))
        span.data.is_error = result.is_error
        span.data.output_chars = result.output.length
        // The error text may quote the file or command it is about: only that there was one.
        span.end(result.is_error ? {message: `${name} returned an error`} : undefined)
        return result
      } catch (error) {
        span.end(spanError(error))
        throw error
      }
    },
  })
}

/**
 * `target` with some members replaced and every other one still reaching it (methods bound to
 * it), so a port keeps whatever else its owner gave it (the ToolPipeline's `runsAlone`, and
 * members added later) exactly as the untraced run sees them.
 */
function overriding<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(object, key) {
      if (Object.hasOwn(overrides, key)) return overrides[key as keyof T]
      const value: unknown = Reflect.get(object, key)
      return typeof value === 'function' ? value.bind(object) : value
    },
  })
}

/**
 * A model error's message is the server's own and never a credential (ModelError's contract);
 * any other error's message may quote what the run was working on, so only its class is kept.
 */
function spanError(error: unknown): SpanError {
  if (!(error instanceof ModelError))
    return {message: error instanceof Error ? error.name : 'a non-Error value was thrown'}
  const data: Record<string, string | number> = {}
  if (error.status !== undefined) data.status = error.status
  if (error.code !== undefined) data.code = error.code
  return {data, message: error.message.slice(0, MAX_ERROR_MESSAGE)}
}
