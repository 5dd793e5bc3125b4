import {performance} from 'node:perf_hooks'
import {
  type HookConfig,
  type HookEvent,
  type Middleware,
  REDACTED,
  type SessionEventInput,
  type SessionEventVerdict,
  type ToolContext,
  type ToolResult,
  toolRefusal,
} from '@hanzo-dev/sdk'

import {parseHooks} from './hook-config.js'
import {type HookExit, runHookProcess} from './hook-process.js'
import {capUtf8, firstHookLine, sanitizeHookText} from './hook-text.js'
import {matchesToolPattern} from './tool-pattern.js'

/** Past this a HANZO_* variable is cut (Linux refuses one over 128 KiB); stdin always has it whole. */
export const MAX_ENV_VALUE_BYTES = 64 * 1024

/** A hook plus how logs and verdicts name it: `hooks[2] pre_tool_use (project)`; never its command line, which may carry a token. */
export type RunnerHook = HookConfig & {label?: string}

type LabeledHook = HookConfig & {label: string}

/** HIP-301 HookResult: whether the call (or the prompt) may go ahead, and why not. */
export type HookDecision = SessionEventVerdict

/** What the pre- and post-hooks of a tool call are told besides the call itself. */
export type HookContext = Pick<ToolContext, 'cwd' | 'sessionId'> & {signal?: AbortSignal}

export interface HookRunnerOptions {
  /** Where hooks run (their working directory). */
  projectRoot: string
  /** The environment hooks inherit (the host's); the HANZO_* hook variables are set on top. */
  env: Readonly<Record<string, string | undefined>>
  /** Receives one line for every hook that failed (it still decides the call: see fail_open). */
  log: (message: string) => void
}

/** What one event hands its hooks. */
export interface HookPayload {
  sessionId: string
  /** The directory the agent works in (given to the hook; hooks themselves run in the project root). */
  cwd: string
  toolName?: string
  toolInput?: Record<string, unknown>
  /** For post_tool_use: the result of the call that already ran. */
  toolResult?: ToolResult
  /** For user_prompt_submit. */
  prompt?: string
  signal?: AbortSignal
}

export interface HookOutcome {
  label: string
  /** allow: exit 0; deny: exit 2; error: anything else (another code, a signal, a timeout, no start). */
  verdict: 'allow' | 'deny' | 'error'
  /** Whether this outcome stops the call or prompt: a deny, or an error of a hook without fail_open. */
  blocks: boolean
  exitCode: number | null
  /** The hook's stderr on a deny; what went wrong on an error. */
  reason?: string
  durationMs: number
}

const TOOL_EVENTS: ReadonlySet<HookEvent> = new Set(['pre_tool_use', 'post_tool_use'])

/** What a failing hook denies, in its log line. */
const SUBJECT: Partial<Record<HookEvent, string>> = {pre_tool_use: 'tool call', user_prompt_submit: 'prompt'}

/**
 * HIP-301 §9 HookRunner: runs the configured shell hooks of an event, in settings order.
 * A hook gets the event as HANZO_* variables and as one JSON object on stdin; its exit code
 * decides (0 allow, 2 deny with stderr as the reason, anything else an error that denies
 * unless the hook has `fail_open`). In the tool pipeline it sits after the permission gate, so
 * a pre-hook deny overrides an ALLOW rule; post-hooks only report.
 */
export class HookRunner {
  private readonly hooks: readonly LabeledHook[]

  constructor(
    hooks: readonly RunnerHook[],
    private readonly options: HookRunnerOptions,
  ) {
    this.hooks = hooks.map((h, i) => ({
      ...h,
      label: h.label ?? `hooks[${i}] ${h.event}${h.tier ? ` (${h.tier})` : ''}`,
    }))
  }

  /** From `settings.hooks` as the host hands it over; invalid entries are left out and named in `problems`. */
  static fromSettings(raw: unknown, options: HookRunnerOptions): {runner: HookRunner; problems: string[]} {
    const parsed = parseHooks(raw)
    const problems = parsed.problem ? [parsed.problem] : []
    const hooks: RunnerHook[] = []
    for (const entry of parsed.hooks) {
      if ('hook' in entry) hooks.push({...entry.hook, label: entry.label})
      else problems.push(`${entry.label}: ${entry.problem}; this hook is not run`)
    }

    return {problems, runner: new HookRunner(hooks, options)}
  }

  get size(): number {
    return this.hooks.length
  }

  /** The hooks an event would run: for tool events, those whose tool_pattern matches the tool. */
  matching(event: HookEvent, toolName?: string): LabeledHook[] {
    const tool = TOOL_EVENTS.has(event)
    return this.hooks.filter(
      (h) => h.event === event && (!tool || (toolName !== undefined && matchesToolPattern(h.tool_pattern, toolName))),
    )
  }

  /**
   * Runs the event's matching hooks in settings order. `stopAtBlock` ends the run at the first
   * outcome that blocks (the first deny wins), as the pipeline does; `hooks test` runs them all.
   */
  async run(event: HookEvent, payload: HookPayload, stopAtBlock = true): Promise<HookOutcome[]> {
    const outcomes: HookOutcome[] = []
    for (const hook of this.matching(event, payload.toolName)) {
      const outcome = await this.runOne(hook, payload)
      outcomes.push(outcome)
      if (outcome.blocks && stopAtBlock) break
    }

    return outcomes
  }

  /** HIP-301 run_pre: the first blocking pre-hook denies, with the reason the model will read. */
  async runPre(toolName: string, input: Record<string, unknown>, context: HookContext): Promise<HookDecision> {
    const blocker = (await this.run('pre_tool_use', {...context, toolInput: input, toolName})).find((o) => o.blocks)
    if (!blocker) return {decision: 'allow'}
    const reason =
      blocker.verdict === 'deny'
        ? `Hook ${blocker.label} denied this ${toolName} call: ${blocker.reason || '(the hook gave no reason)'}`
        : `Hook ${blocker.label} failed (${blocker.reason}), so this ${toolName} call was not run.`
    return {decision: 'deny', reason}
  }

  /** HIP-301 run_post: the tool already ran, so nothing blocks; a deny is only reported. */
  async runPost(
    toolName: string,
    input: Record<string, unknown>,
    result: ToolResult,
    context: HookContext,
  ): Promise<void> {
    const outcomes = await this.run(
      'post_tool_use',
      {...context, toolInput: input, toolName, toolResult: result},
      false,
    )
    for (const o of outcomes) {
      if (o.verdict === 'deny')
        this.options.log(
          `${o.label} denied after the ${toolName} call had run (post hooks cannot block): ${o.reason || '(no reason given)'}`,
        )
    }
  }

  /** The session events (session_start, user_prompt_submit, stop, pre_compact): the first blocking hook decides. */
  async runSessionEvent(input: SessionEventInput): Promise<SessionEventVerdict> {
    const outcomes = await this.run(input.event, {cwd: input.cwd, prompt: input.prompt, sessionId: input.sessionId})
    const blocker = outcomes.find((o) => o.blocks)
    if (!blocker) return {decision: 'allow'}
    const why = blocker.verdict === 'deny' ? blocker.reason || 'no reason given' : `the hook failed: ${blocker.reason}`
    return {decision: 'deny', reason: `${blocker.label}: ${why}`}
  }

  /** The tool-pipeline step: pre-hooks, then the rest of the pipeline (sandbox, execute), then post-hooks. */
  middleware(): Middleware {
    return {
      name: 'hooks',
      wrap: (next) => async (call, context) => {
        const pre = await this.runPre(call.name, call.input, context)
        if (pre.decision === 'deny') return toolRefusal(pre.reason)
        const result = await next(call, context)
        await this.runPost(call.name, call.input, result, context)
        return result
      },
    }
  }

  private async runOne(hook: LabeledHook, payload: HookPayload): Promise<HookOutcome> {
    const started = performance.now()
    const exit = await this.start(hook, payload)
    const durationMs = Math.round(performance.now() - started)
    const exitCode = exit.kind === 'exited' ? exit.code : null
    if (exit.kind === 'exited' && exit.code === 0)
      return {blocks: false, durationMs, exitCode, label: hook.label, verdict: 'allow'}
    if (exit.kind === 'exited' && exit.code === 2) {
      return {
        blocks: true,
        durationMs,
        exitCode,
        label: hook.label,
        reason: sanitizeHookText(exit.stderr),
        verdict: 'deny',
      }
    }

    const reason = describeFailure(exit, hook.timeout_ms, this.options.projectRoot)
    const consequence =
      hook.event === 'post_tool_use'
        ? 'the tool call had already run'
        : hook.fail_open
          ? 'fail_open is set, so this is let through'
          : `the ${SUBJECT[hook.event] ?? `${hook.event} event`} is denied (fail closed)`
    this.options.log(`${hook.label} ${reason}; ${consequence}`)
    return {blocks: !hook.fail_open, durationMs, exitCode, label: hook.label, reason, verdict: 'error'}
  }

  private start(hook: LabeledHook, payload: HookPayload): Promise<HookExit | {kind: 'redacted'}> {
    // A command line with its arguments redacted must never run: `rm [redacted]` is not what the user wrote.
    if (hook.command.includes(REDACTED)) return Promise.resolve({kind: 'redacted'})
    return runHookProcess({
      command: hook.command,
      cwd: this.options.projectRoot,
      env: this.env(hook.event, payload),
      signal: payload.signal,
      stdin: JSON.stringify(stdinPayload(hook.event, payload)),
      timeoutMs: hook.timeout_ms,
    })
  }

  private env(event: HookEvent, payload: HookPayload): Record<string, string> {
    const env: Record<string, string> = {}
    for (const [key, value] of Object.entries(this.options.env)) {
      // Variables of an enclosing hook (a hook that runs hanzo-dev) must not leak into this one.
      if (value !== undefined && !/^HANZO_(TOOL_|HOOK_EVENT$|SESSION_ID$)/.test(key)) env[key] = value
    }

    env.HANZO_HOOK_EVENT = event
    env.HANZO_SESSION_ID = payload.sessionId
    if (payload.toolName !== undefined) {
      env.HANZO_TOOL_NAME = payload.toolName
      setCapped(env, 'HANZO_TOOL_INPUT', JSON.stringify(payload.toolInput ?? {}))
    }

    if (payload.toolResult) setCapped(env, 'HANZO_TOOL_OUTPUT', payload.toolResult.output)
    return env
  }
}

/** The JSON object a hook reads on stdin: the same data as the variables, never cut. */
function stdinPayload(event: HookEvent, p: HookPayload): Record<string, unknown> {
  const data: Record<string, unknown> = {cwd: p.cwd, event, session_id: p.sessionId}
  if (p.toolName !== undefined) Object.assign(data, {tool_input: p.toolInput ?? {}, tool_name: p.toolName})
  if (p.toolResult)
    Object.assign(data, {
      tool_error: p.toolResult.error,
      tool_is_error: p.toolResult.is_error,
      tool_output: p.toolResult.output,
    })
  if (p.prompt !== undefined) data.prompt = p.prompt
  return data
}

/** Sets `name`, cut to {@link MAX_ENV_VALUE_BYTES}; `<name>_TRUNCATED=1` says when it was. NUL bytes cannot be in a variable. */
function setCapped(env: Record<string, string>, name: string, value: string): void {
  const capped = capUtf8(value.replaceAll('\u0000', ''), MAX_ENV_VALUE_BYTES)
  env[name] = capped.text
  if (capped.truncated) env[`${name}_TRUNCATED`] = '1'
}

function describeFailure(exit: HookExit | {kind: 'redacted'}, timeoutMs: number, cwd: string): string {
  switch (exit.kind) {
    case 'exited': {
      const said = firstHookLine(exit.stderr)
      return `exited with code ${exit.code}${said ? ` (${said})` : ''}`
    }

    case 'signaled':
      return `was killed by ${exit.signal}`
    case 'timed_out':
      return `timed out after ${timeoutMs} ms and was killed with its child processes`
    case 'aborted':
      return 'was stopped because the turn was cancelled'
    case 'spawn_failed':
      return `could not start (/bin/sh in ${cwd}): ${exit.message}`
    case 'redacted':
      return `was not run: its command line reached the hooks plugin redacted (${REDACTED})`
  }
}
