// The tracing API of the library, named as in hanzo-agent / openai-agents.
export {BatchTraceProcessor, type BatchTraceProcessorOptions} from './batch-processor.js'
export {addTraceProcessor, readTracingEnvironmentFrom, setTraceProcessors, setTracingDisabled} from './provider.js'
export {Span, Trace} from './spans.js'
export type * from './types.js'
