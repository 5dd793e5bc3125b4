import {randomUUID} from 'node:crypto'

import type {ImagePart, Middleware, RunResult, ToolDefinition} from '@hanzo-dev/sdk'

import {type PermissionStep, ToolPipeline} from '../tools/pipeline.js'
import {ToolRegistry} from '../tools/registry.js'
import {traceAgentRun, type TracedPorts} from '../tracing/agent-run.js'
import {type CompactionResult, SessionCompactor, type SummaryFailures} from './compaction.js'
import {modelSummarizer} from './compaction-summary.js'
import {getDefaultOpenAIClient, MissingModelClientError} from './default-client.js'
import {repairHistory} from './history-repair.js'
import {type AgentEvent, runAgentLoop} from './loop.js'
import type {ApiClient, Message} from './types.js'

/**
 * The library API in the spirit of hanzo-agent's `Agent` / `Runner` / `function_tool` (`tool()`):
 *
 *   setDefaultOpenAIClient(createOpenAIClient({baseURL: 'http://127.0.0.1:11434/v1'}))   // or {client} per run
 *   const agent = new Agent({name: 'Assistant', instructions: '...', model: 'qwen3:0.6b', tools: [weather]})
 *   const result = await Runner.run(agent, 'What is the weather in Tokyo?')
 *   console.log(result.finalOutput)
 *
 * `hanzo-dev run` builds the same Agent (built-in and plugin tools, the permission gate) and
 * calls the same `Runner.run`: there is one loop.
 */
export interface AgentOptions {
  name: string
  instructions?: string
  model: string
  tools?: ToolDefinition[]
}

export class Agent {
  readonly name: string
  readonly instructions: string
  readonly model: string
  readonly tools: ToolDefinition[]

  constructor(options: AgentOptions) {
    this.name = options.name
    this.instructions = options.instructions ?? ''
    this.model = options.model
    this.tools = options.tools ?? []
  }
}

export interface RunOptions {
  /** Absent: the one `setDefaultOpenAIClient` set (else a MissingModelClientError). */
  client?: ApiClient
  signal?: AbortSignal
  /** Default 10. */
  maxTurns?: number
  maxTokens?: number
  sessionId?: string
  /** The workspace tools act in; default `.`, which the file system resolves against the process's working directory. */
  cwd?: string
  /** Earlier messages of the conversation (without the system message), to continue it. */
  history?: Message[]
  /** Images sent with `input` (the chat's `@shot.png`). */
  images?: ImagePart[]
  /** Whether the model sees images; absent, known by its name (model-images.ts). */
  takesImages?: boolean
  /** Asked before each tool call; absent, the agent's tools run without asking. */
  permissions?: PermissionStep
  /** See ToolPipelineOptions.canonicalPath. */
  canonicalPath?: (path: string) => Promise<string | null | undefined>
  /** Wraps every tool call (sandbox, hooks). */
  middleware?: readonly Middleware[]
  /** What no tool reads or writes (ToolContext.hiddenPaths). */
  hiddenPaths?: readonly string[]
  /**
   * The tools with where each came from (plugin tools always ask permission); absent, the
   * agent's tools, as the caller's own.
   */
  registry?: ToolRegistry
  /**
   * The registry's tools the model is offered (ToolScope); calls to the others are refused. Absent: all.
   * Read at each model request, not once: the list and the registry may grow during a run (tools that arrive late).
   */
  offered?: readonly string[]
  onEvent?: (event: AgentEvent) => void
  /** Asked before each model request: true ends the run as `budget` (a session's --max-budget-usd). */
  overBudget?: () => boolean
  /**
   * Opt-in compaction (HIP-301 §5): past 90% of `maxTokens` (the conversation's budget, not
   * the per-reply cap above) the middle of the history becomes a summary the model writes.
   */
  compaction?: {
    maxTokens: number
    reserveRecent?: number
    /** The session's count of failed summary calls in a row (it outlives a run). */
    failures?: SummaryFailures
    onPreCompact?: () => Promise<void>
    onCompacted?: (result: CompactionResult) => void
  }
}

export type {RunResult} from '@hanzo-dev/sdk'

export const DEFAULT_MAX_TURNS = 10

function libraryRegistry(tools: readonly ToolDefinition[]): ToolRegistry {
  const registry = new ToolRegistry()
  for (const definition of tools) {
    const warning = registry.register(definition, 'library')
    if (warning) throw new TypeError(warning)
  }

  return registry
}

/**
 * A class with a static `run`, as hanzo-agent's `Runner.run`. Once a trace processor is added
 * (`addTraceProcessor`), each run makes a trace named after the agent, with an agent span and a
 * span per model request and per tool call; without one, it makes nothing.
 */
export class Runner {
  static async run(agent: Agent, input: string, options: RunOptions = {}): Promise<RunResult> {
    const client = options.client ?? getDefaultOpenAIClient()
    if (!client) throw new MissingModelClientError()
    const registry = options.registry ?? libraryRegistry(agent.tools)
    const cwd = options.cwd ?? '.'
    const {canonicalPath, hiddenPaths, middleware, permissions} = options
    const offered = options.offered && {has: (name: string) => options.offered!.includes(name)}
    const executor = new ToolPipeline({canonicalPath, cwd, hiddenPaths, middleware, offered, permissions, registry})
    const history: Message[] = [
      ...(agent.instructions ? [{content: agent.instructions, role: 'system'} as const] : []),
      // A history an interrupt or a crash left without some results would be refused by the model.
      ...repairHistory(options.history ?? []),
      {content: input, role: 'user', ...(options.images?.length ? {images: options.images} : {})},
    ]
    const sessionId = options.sessionId ?? randomUUID()
    const offeredTools = () => registry.specs().filter((spec) => !offered || offered.has(spec.name))
    const tools = offeredTools()
    const loop = (ports: TracedPorts) =>
      runAgentLoop(history, {
        ...ports,
        maxTokens: options.maxTokens,
        maxTurns: options.maxTurns ?? DEFAULT_MAX_TURNS,
        model: agent.model,
        ...(options.takesImages === undefined ? {} : {images: options.takesImages}),
        onEvent: options.onEvent,
        ...(options.overBudget && {overBudget: options.overBudget}),
        sessionId,
        signal: options.signal,
        tools: offeredTools,
        compaction: options.compaction && {
          // The summary goes through the traced client: its request gets a span like any other.
          compactor: new SessionCompactor({
            ...options.compaction,
            summarize: modelSummarizer(ports.client, agent.model),
          }),
          onCompacted: options.compaction.onCompacted,
          onPreCompact: options.compaction.onPreCompact,
        },
      })
    // Spans (when a trace processor is added and tracing is not disabled) come from the ports.
    const ports = {client, executor}
    const tracer = traceAgentRun(agent, tools, sessionId)
    const result = await (tracer ? tracer.run(ports, loop) : loop(ports))
    return {...result, history}
  }
}
