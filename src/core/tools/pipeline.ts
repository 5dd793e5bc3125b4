import {type Middleware, type ToolContext, type ToolExecutorFn, type ToolResult, toolError} from '@hanzo-dev/sdk/tools'
import {ToolFatalError} from '@hanzo-dev/sdk/errors'

import type {ToolExecutor} from '../agent/types.js'
import type {PermissionCheck, PermissionGate, PermissionOutcome} from '../permissions/gate.js'
import {type CallDescription, callPreview, describeCall, describedCall} from './call-description.js'
import {invalidInput, validateToolInput} from './input-validation.js'
import {type ToolRegistry, trusted} from './registry.js'
import {DEFAULT_MAX_OUTPUT_CHARS, truncateOutput} from './truncate.js'

/** The permission step: a PermissionGate (policy, prompter, session approvals, audit). */
export type PermissionStep = Pick<PermissionGate, 'check'> & Partial<Pick<PermissionGate, 'refuse'>>

export interface ToolPipelineOptions {
  registry: ToolRegistry
  /** The workspace the tools act in. */
  cwd: string
  /** Absent: every call is allowed (a library caller running its own tools). */
  permissions?: PermissionStep
  /**
   * A call's path subject as permission rules see it: workspace-relative, symlinks and `..`
   * resolved, so `fs_write(src/*)` matches `./src/../src/a.ts`; null when it leads out of the
   * workspace (no path rule may then allow it), undefined when there is no such notion.
   */
  canonicalPath?: (path: string) => Promise<string | null | undefined>
  /** Sandbox, hooks: each wraps the execution that follows it. */
  middleware?: readonly Middleware[]
  /**
   * The registry's tools this run offers the model (ToolScope); absent, all of them. A call to
   * another is refused before anything else (its input is not even looked at), and the refusal
   * is a deny in the audit log (`permissions.refuse`).
   */
  offered?: {has(name: string): boolean}
  maxOutputChars?: number
  /** What no tool reads or writes (ToolContext.hiddenPaths). */
  hiddenPaths?: readonly string[]
}

export const CANCELLED = 'cancelled: the turn was interrupted before this tool call finished'

/**
 * One order for every tool call (ARCHITECTURE.md): lookup, input validation, permission
 * (policy, then the prompter), middleware (pre-hooks, sandbox), execute, output truncation.
 * Whatever goes wrong comes back as an error result for the model: an unknown tool, bad input,
 * a denial, a tool that throws. Only the caller's abort ends a call early ("cancelled"), and a
 * {@link ToolFatalError} ends the turn (it is thrown on, to the loop).
 */
export class ToolPipeline implements ToolExecutor {
  // One prompt at a time, in call order, even while read-only calls run side by side.
  private permissionQueue: Promise<unknown> = Promise.resolve()
  private readonly run: ToolExecutorFn

  constructor(private readonly options: ToolPipelineOptions) {
    const execute: ToolExecutorFn = (call, context) =>
      this.options.registry.get(call.name)!.definition.execute(call.input, context)
    this.run = (options.middleware ?? []).reduceRight<ToolExecutorFn>((next, m) => m.wrap(next), execute)
  }

  /** Whether a call counts as a change to the permission policy (unknown and untrusted tools do). */
  isMutating(name: string): boolean {
    const tool = this.options.registry.get(name)
    return !tool || !trusted(tool) || tool.definition.mutating
  }

  /** Whether a call must wait for the calls before it and hold back the ones after it. */
  runsAlone(name: string): boolean {
    const tool = this.options.registry.get(name)
    return this.isMutating(name) && !(tool?.definition.concurrent && trusted(tool))
  }

  describe(name: string, input: Record<string, unknown>): CallDescription | undefined {
    const tool = this.options.registry.get(name)
    return tool && describeCall(tool.definition, input)
  }

  async execute(
    name: string,
    input: Record<string, unknown>,
    sessionId: string,
    signal?: AbortSignal,
  ): Promise<ToolResult> {
    const result = await this.executeUntruncated(name, input, sessionId, signal ?? new AbortController().signal)
    const max = this.options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS
    return {
      error: result.error === null ? null : truncateOutput(result.error, max),
      is_error: result.is_error,
      output: truncateOutput(result.output, max),
      ...(result.details ? {details: result.details} : {}),
      ...(result.images ? {images: result.images} : {}),
    }
  }

  private async executeUntruncated(
    name: string,
    input: Record<string, unknown>,
    sessionId: string,
    signal: AbortSignal,
  ): Promise<ToolResult> {
    const {offered, permissions, registry} = this.options
    const tool = registry.get(name)
    const available = () =>
      registry
        .list()
        .map((t) => t.definition.name)
        .filter((known) => !offered || offered.has(known))
    if (!tool) return toolError(`Unknown tool "${name}". The available tools are: ${available().join(', ') || 'none'}`)
    if (offered && !offered.has(tool.definition.name)) {
      const reason = `${tool.definition.name} is not one of this session's tools (${available().join(', ') || 'it has none'})`
      await permissions?.refuse?.({sessionId, toolName: tool.definition.name}, reason)
      return toolError(`Refused: ${reason}. Use only the tools you were given.`)
    }

    const problem = await validateToolInput(tool.definition.inputSchema, input)
    if (problem) return invalidInput(tool.definition.name, problem)

    if (signal.aborted) return toolError(CANCELLED)
    const {definition} = tool
    const description = describeCall(definition, input)
    const {kind, subject, title} = description
    const context: ToolContext = {cwd: this.options.cwd, hiddenPaths: this.options.hiddenPaths, sessionId, signal}
    const canonicalPath = subject?.kind === 'path' ? await this.options.canonicalPath?.(subject.path) : undefined
    const preview = callPreview(definition, input, context)
    const permission = await this.checkPermission({
      canonicalPath,
      input,
      kind,
      mutating: this.isMutating(name),
      preview,
      reconfirm: definition.reconfirm?.(),
      sessionId,
      subject,
      title,
      toolName: definition.name,
      trusted: trusted(tool),
    })
    if (!permission.allowed) return toolError(`Permission denied for ${definition.name}: ${permission.reason}`)

    try {
      const result = await this.run(describedCall(definition.name, input, description), context)
      // A hook or the sandbox kept it from running: that is a decision too, and the audit log has each.
      if (result.refused)
        await permissions?.refuse?.({sessionId, toolName: definition.name}, result.error ?? 'refused before it ran')
      return signal.aborted && !result.is_error ? toolError(CANCELLED, result.output) : result
    } catch (error) {
      if (error instanceof ToolFatalError) throw error
      if (signal.aborted) return toolError(CANCELLED)
      return toolError(`${definition.name} failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  private checkPermission(request: PermissionCheck) {
    const {permissions} = this.options
    if (!permissions) return Promise.resolve<PermissionOutcome>({allowed: true})
    const decision = this.permissionQueue.then(() => permissions.check(request))
    this.permissionQueue = decision.catch(() => undefined)
    return decision
  }
}
