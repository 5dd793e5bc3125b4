import type {
  AgentRunOptions,
  AgentRunResult,
  AgentSession,
  ChildSessionOptions,
  CompactResult,
  ContextBudget,
  ContributedSlashCommand,
  CustomPrompts,
  ListedModel,
  MentionCandidate,
  Message,
  OfferedTool,
  SessionEventInput,
  SessionUsage,
  ToolResult,
  ToolScope,
  ToolVerdict,
} from '@hanzo-dev/sdk'

import {SessionCompactor, SummaryFailures} from '../../core/agent/compaction.js'
import {modelSummarizer} from '../../core/agent/compaction-summary.js'
import {modelTakesImages} from '../../core/agent/model-images.js'
import {Agent, Runner} from '../../core/agent/runner.js'
import {joinSections, type PromptSection, systemPromptSections} from '../../core/agent/system-prompt.js'
import {ModelError} from '../../core/agent/types.js'
import {AgentRunError, ToolFatalError} from '../../core/errors.js'
import {scopedToolNames, unknownToolEntry} from '../../core/tools/scope.js'
import {loadPrices} from '../prices.js'
import type {BackgroundProcesses} from '../tools/background-processes.js'
import type {Subagents} from '../tools/subagents.js'
import type {Skill} from '../skills.js'
import {configureCliTracing} from '../tracing-exporter.js'
import {compactionBudget} from './compaction-budget.js'
import {canonicalPath, DirectTools} from './direct-tools.js'
import type {RecordedRun} from './recording.js'
import {PluginLive} from './plugin-live.js'
import {fireSessionEvent} from './session-events.js'
import type {Lifetime, NodeSettings, SessionParts} from './session-parts.js'

export const DEFAULT_RUN_MAX_TURNS = 25

/**
 * An agent session (`AgentSession` in the sdk). Each run fires `user_prompt_submit` (the first
 * also `session_start`), records itself into the saved session and runs the library's one loop
 * with the session's tools, permission gate and middleware. Its conversation goes on from run
 * to run; a child's starts empty. A child is the same session to the permission gate (the
 * same id), so an approval "for this session" covers it, and the same policy, hooks and sandbox
 * apply in it by construction.
 */
export class AgentSessionNode implements AgentSession {
  private closed = false
  private running = false
  private prompt?: readonly PromptSection[]
  private readonly shared: Lifetime
  private readonly root: boolean
  /** Its summary calls that failed in a row: after three, compaction stops making them (no thrash). */
  private readonly summaryFailures = new SummaryFailures()
  private readonly plugins: PluginLive
  /** Its tools called outside a run (callTool, verdict). */
  private readonly direct: DirectTools

  constructor(
    private readonly parts: SessionParts,
    private readonly settings: NodeSettings,
    lifetime?: Lifetime,
  ) {
    this.root = lifetime === undefined
    this.shared = lifetime ?? {closed: false, started: false}
    this.plugins = new PluginLive(parts.contributions)
    if (this.root) this.plugins.watch()
    this.direct = new DirectTools(parts, settings.tools, parts.recording.id)
  }

  get id(): string {
    return this.parts.recording.id
  }

  get model(): string {
    return this.settings.model
  }

  get provider(): string {
    return this.parts.model.provider
  }

  get takesImages(): boolean {
    return this.parts.config.providers?.[this.provider]?.images ?? modelTakesImages(this.model)
  }

  get cwd(): string {
    return this.parts.cwd
  }

  get tools(): readonly string[] {
    return this.settings.tools
  }

  /** The commands its exec calls run in the background (the chat's `/bashes`). */
  get background(): BackgroundProcesses {
    return this.parts.background
  }

  get skills(): readonly Skill[] {
    return this.parts.skills
  }

  /** The children its `task` calls run (the chat folds each into a line). */
  get subagents(): Subagents {
    return this.parts.subagents
  }

  async run(prompt: string, options: AgentRunOptions = {}): Promise<AgentRunResult> {
    if (this.closed || this.shared.closed) throw new Error('This agent session is closed')
    const {config, cwd, env, model, recording} = this.parts
    const interrupt = this.parts.interrupts.begin(options.signal)
    let recorded: RecordedRun | undefined
    this.running = true
    try {
      if (!this.shared.started) {
        this.shared.started = true
        await this.event('session_start')
      }

      const submitted = await this.event('user_prompt_submit', {prompt})
      if (submitted.decision === 'deny') {
        throw new AgentRunError(`A hook stopped the prompt: ${submitted.reason}`, {
          hint: 'hanzo-dev hooks list shows the user_prompt_submit hooks',
          reason: submitted.reason,
        })
      }

      const instructions = joinSections(this.systemPrompt())
      const history = options.history ? [...options.history] : this.settings.history
      recorded = recording.begin({
        history,
        instructions,
        label: options.label ?? this.settings.label,
        model: this.model,
        provider: model.provider,
        unrecorded: this.settings.record === false,
        ...(this.settings.kind ? {kind: this.settings.kind} : {}),
      })
      const {recorder} = recorded
      const budget = await this.contextBudget()
      this.parts.checkpoints?.promptStarted()
      this.shared.tracing ??= configureCliTracing(config, env) ?? null
      // A child's prompt is its parent's words: what the plugins queued is the root's to take.
      const input = this.root ? this.plugins.withPendingContext(prompt) : prompt
      const result = await Runner.run(new Agent({instructions, model: this.model, name: 'hanzo-dev'}), input, {
        canonicalPath: (path) => canonicalPath(cwd, path),
        client: recorder.wrap(model.client),
        compaction:
          budget.tokens === undefined
            ? undefined
            : {
                failures: this.summaryFailures,
                maxTokens: budget.tokens,
                onCompacted: (compacted) => recorder.compacted(compacted),
                onPreCompact: async () => void (await this.event('pre_compact')),
                reserveRecent: config.reserve_recent,
              },
        cwd,
        hiddenPaths: this.parts.hiddenPaths,
        history,
        images: options.images,
        takesImages: this.takesImages,
        maxTokens: outputLimit(config.max_output_tokens, this.settings.maxOutputTokens),
        maxTurns: this.settings.maxTurns,
        middleware: this.parts.middleware,
        offered: options.tools === undefined ? this.settings.tools : this.scoped(options.tools),
        onEvent(event) {
          recorder.onEvent(event)
          options.onEvent?.(event)
        },
        ...(this.parts.overBudget && {overBudget: this.parts.overBudget}),
        permissions: this.parts.permissions,
        registry: this.parts.registry,
        sessionId: this.id,
        signal: interrupt.signal,
      })
      recorder.finish(result.history)
      recorder.end(result.stop)
      // The system message is each run's own; the conversation goes on without it.
      this.settings.history = result.history.slice(1)
      return {...result, usageReport: recorded.usage(await loadPrices(config.pricing))}
    } catch (error) {
      recorded?.recorder.end('error', error instanceof Error ? error.message : String(error))
      if (error instanceof ToolFatalError)
        throw new AgentRunError(`A tool ended the turn: ${error.message}`, {cause: error, reason: error.message})
      if (!(error instanceof ModelError)) throw error
      throw new AgentRunError(error.message, {cause: error, hint: model.errorHint(error), reason: error.message})
    } finally {
      // What a background command changed after its call returned is this prompt's to take back too.
      await this.parts.checkpoints?.settle()
      this.running = false
      recorded?.done()
      interrupt.end()
    }
  }

  models(options: {signal?: AbortSignal} = {}): Promise<ListedModel[]> {
    return this.parts.model.listModels(options.signal)
  }

  async compact(options: {focus?: string; signal?: AbortSignal} = {}): Promise<CompactResult> {
    if (this.closed || this.shared.closed) throw new Error('This agent session is closed')
    if (this.running) throw new Error('A run is in progress: compact after it ends')
    const {config, model} = this.parts
    // On demand the budget does not matter: only which turns stay (reserve_recent) does.
    const compactor = new SessionCompactor({
      failures: this.summaryFailures,
      maxTokens: config.max_tokens ?? Number.MAX_SAFE_INTEGER,
      reserveRecent: config.reserve_recent,
      summarize: modelSummarizer(
        this.parts.recording.metered(model.client, {model: this.model, provider: model.provider}),
        this.model,
        options.focus,
      ),
    })
    if (!compactor.canCompact(this.settings.history)) return {compactedCount: 0, strategy: 'none', tokensSaved: 0}
    await this.event('pre_compact')
    const result = await compactor.compact(this.settings.history, {retrySummary: true, signal: options.signal})
    // The next run carries on the compacted conversation; the recording sees a new one then.
    this.settings.history = result.messages
    return {
      compactedCount: result.compacted_count,
      strategy: result.strategy,
      tokensSaved: result.tokens_saved,
      ...(result.fallback_reason === undefined ? {} : {fallbackReason: result.fallback_reason}),
    }
  }

  async usage(): Promise<SessionUsage> {
    return this.parts.recording.usage(await loadPrices(this.parts.config.pricing))
  }

  conversation(): readonly Message[] {
    return this.settings.history
  }

  contextBudget(): Promise<ContextBudget> {
    return compactionBudget(this.parts.config, this.provider, this.model)
  }

  statusItems(): readonly string[] {
    return this.plugins.statusItems()
  }

  systemPrompt(): readonly PromptSection[] {
    // Built once, from the tools offered at the first turn: a tool a plugin adds later does not
    // change the bytes of a prompt the provider has cached.
    this.prompt ??= [
      ...(this.settings.systemPrompt?.trim()
        ? [{text: this.settings.systemPrompt.trim(), title: "The agent's own instructions"}]
        : []),
      ...systemPromptSections({...this.parts.prompt, tools: this.settings.tools}),
    ]
    return this.prompt
  }

  slashCommands(): readonly ContributedSlashCommand[] {
    return this.plugins.slashCommands()
  }

  onSlashCommandsChanged(listener: () => void): void {
    this.plugins.onSlashCommandsChanged(listener)
  }

  async customPrompts(): Promise<CustomPrompts> {
    return this.parts.customPrompts()
  }

  completeMention(prefix: string, signal: AbortSignal): Promise<MentionCandidate[]> {
    return this.plugins.mentions(prefix, signal)
  }

  onPluginNotice(listener: (line: string) => void): void {
    this.plugins.onNotice(listener)
  }

  child(options: ChildSessionOptions = {}): AgentSession {
    const tools = options.tools === undefined ? this.settings.tools : this.scoped(options.tools)
    const {label, maxTurns, model, record, systemPrompt} = this.settings
    return new AgentSessionNode(
      this.parts,
      {
        history: [],
        label: options.label ?? label,
        maxTurns: options.maxTurns ?? maxTurns,
        model: options.model ?? model,
        record: options.record ?? record,
        ...(options.kind ? {kind: options.kind} : {}),
        ...(options.maxOutputTokens === undefined ? {} : {maxOutputTokens: options.maxOutputTokens}),
        systemPrompt: options.systemPrompt ?? systemPrompt,
        tools,
      },
      this.shared,
    )
  }

  /** The session's tools within `scope`: never one the session itself is not offered. */
  private scoped(scope: ToolScope): string[] {
    const names = scopedToolNames(this.parts.registry, scope)
    for (const entry of names.unknown) this.parts.warn(unknownToolEntry(entry))
    return names.names.filter((name) => this.settings.tools.includes(name))
  }

  toolSpecs(): OfferedTool[] {
    return this.direct.specs()
  }

  callTool(name: string, input: Record<string, unknown>, options: {signal?: AbortSignal} = {}): Promise<ToolResult> {
    if (this.closed || this.shared.closed) throw new Error('This agent session is closed')
    return this.direct.call(name, input, options.signal)
  }

  verdict(name: string, input: Record<string, unknown>): Promise<ToolVerdict> {
    return this.direct.verdict(name, input)
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    if (!this.root) return
    this.shared.closed = true
    await this.parts.background.closeAll()
    // Bounded (2 s): a collector that is down never holds the exit.
    await this.shared.tracing?.shutdown()
    this.parts.recording.close()
    this.parts.checkpoints?.release()
    if (this.shared.started) await this.event('stop')
    for (const {value} of this.parts.contributions) await value.dispose?.()
  }

  private event(name: SessionEventInput['event'], extra: Partial<SessionEventInput> = {}) {
    return fireSessionEvent(
      this.parts.contributions,
      {cwd: this.cwd, event: name, sessionId: this.id, ...extra},
      this.parts.warn,
    )
  }
}

/** The lower of the setting's reply limit and the caller's (an MCP server's `maxTokens`): either may be unset. */
function outputLimit(setting: number | undefined, caller: number | undefined): number | undefined {
  return setting === undefined || caller === undefined ? (setting ?? caller) : Math.min(setting, caller)
}
