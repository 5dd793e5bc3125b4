import {randomUUID} from 'node:crypto'
import {homedir} from 'node:os'
import type {Config} from '@oclif/core'
import type {Middleware, SessionEventInput} from '@hanzo-dev/sdk'

import {AuditLog, auditLogPath} from '../adapters/audit-log.js'
import {type LoadedSession, SessionStore, TranscriptFile} from '../adapters/session-store.js'
import {configureCliTracing} from '../adapters/tracing-exporter.js'
import {hostInput} from '../adapters/host-context.js'
import {collectContributions, hookTimeoutMs} from '../adapters/plugin-host.js'
import {readProjectInstructions} from '../adapters/project-instructions.js'
import {createPrompter} from '../adapters/prompt/index.js'
import {builtinTools} from '../adapters/tools/index.js'
import {resolveToolPath} from '../adapters/tools/workspace-path.js'
import {Agent, Runner} from '../core/agent/runner.js'
import {buildSystemPrompt} from '../core/agent/system-prompt.js'
import {type Message, ModelError} from '../core/agent/types.js'
import type {LoadedConfig} from '../core/config/types.js'
import {UserError} from '../core/errors.js'
import {resolvePaths} from '../core/paths.js'
import {SessionRecorder} from '../core/sessions/recorder.js'
import {type RunLine, type SessionHeader, TRANSCRIPT_VERSION, type TranscriptLine} from '../core/sessions/transcript.js'
import {type Pricing, totalUsage, turnUsage, usageLines} from '../core/sessions/usage.js'
import {DEFAULT_PERMISSION_RULES, PermissionGate, PermissionPolicy, type SessionPermissionMode} from '../core/permissions/index.js'
import {ToolRegistry, type ToolSource} from '../core/tools/registry.js'
import {modelClient} from './model-client.js'
import {protectedRules} from './protected-rules.js'
import type {RunOutput, RunSummary, RunUsage} from './run-output.js'
import {fireSessionEvent} from './session-events.js'
import {makeStyle} from './style.js'

export const DEFAULT_RUN_MAX_TURNS = 25

export interface StartRunOptions {
  cliConfig: Config
  loaded: LoadedConfig
  flags: {model?: string; baseURL?: string; maxTurns?: number}
  permissionMode: SessionPermissionMode
  /** A model script to replay instead of a server (hidden `--fake-model`). */
  fakeModel?: string
  /** Carry on a saved session: `resume` names it (its id, or a unique prefix), `continue` is this project's latest. */
  session?: {resume?: string; continue?: boolean}
  warn(message: string): void
}

export interface PreparedRun {
  summary: RunSummary
  /** Runs the task to the end; resolves to the exit code. */
  execute(prompt: string, output: RunOutput): Promise<number>
}

/**
 * Everything `hanzo-dev run` puts together before the loop starts: the model client, the tools
 * (built-ins first, so no plugin can shadow one; then plugin contributions), the permission
 * gate, and the system prompt. The loop itself is the library's `Runner.run`.
 */
export async function startRun(options: StartRunOptions): Promise<PreparedRun> {
  const {config, permissionRules, projectRoot} = options.loaded
  const cwd = process.cwd()
  const sessions = SessionStore.at(resolvePaths(process.env, homedir()).dataDir)
  // Before the model client: a wrong id is the first thing to say.
  const saved = await savedSession(sessions, options, projectRoot)
  const {client, errorHint, model, provider} = await modelClient(options)
  const sessionId = saved?.transcript.header.id ?? randomUUID()
  const registry = new ToolRegistry()
  for (const tool of builtinTools({exec: {envPassthrough: config.exec?.env_passthrough}})) registry.register(tool, 'builtin')
  const contributed = await collectContributions(options.cliConfig, hostInput(options.loaded, cwd, process.env), hookTimeoutMs(process.env))
  for (const warning of contributed.warnings) options.warn(`plugin ${warning.plugin}: ${warning.message}`)
  const middleware: Middleware[] = []
  const pluginContext: string[] = []
  for (const {plugin, pluginType, value} of contributed.answers) {
    for (const tool of value.tools ?? []) {
      const warning = registry.register(tool, pluginType as ToolSource, plugin)
      if (warning) options.warn(warning)
    }

    middleware.push(...(value.middleware ?? []))
    if (value.context) pluginContext.push(value.context)
    for (const notice of value.notices ?? []) options.warn(notice)
  }

  const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY)
  // Ctrl-C: SIGINT, or the key at a permission prompt (the terminal is raw then, so no signal).
  const interrupt = new AbortController()
  const permissions = new PermissionGate({
    audit: new AuditLog(auditLogPath(resolvePaths(process.env, homedir()).dataDir)),
    policy: new PermissionPolicy(permissionRules, {defaults: DEFAULT_PERMISSION_RULES, mode: options.permissionMode, protected: await protectedRules(cwd, projectRoot, process.env)}),
    prompter: createPrompter({cwd, input: process.stdin, interactive, interrupt, output: process.stderr, style: makeStyle(process.stderr)}),
  })
  const instructions = buildSystemPrompt({
    customInstructions: config.custom_instructions,
    cwd,
    date: new Date().toISOString().slice(0, 10),
    pluginContext,
    projectFiles: await readProjectInstructions(projectRoot),
  })
  const agent = new Agent({instructions, model, name: 'hanzo-dev'})
  const dispose = async () => {
    for (const {value} of contributed.answers) await value.dispose?.()
  }

  return {
    async execute(prompt, output) {
      output.start(registry.list().map((t) => t.definition.name), cwd)
      const sessionEvent = (name: SessionEventInput['event'], extra: Partial<SessionEventInput> = {}) =>
        fireSessionEvent(contributed.answers, {cwd, event: name, sessionId, ...extra}, options.warn)
      const onSigint = () => (interrupt.signal.aborted ? process.exit(130) : interrupt.abort())
      process.on('SIGINT', onSigint)
      let recording: Recording | undefined
      let tracing: ReturnType<typeof configureCliTracing>
      try {
        await sessionEvent('session_start')
        const submitted = await sessionEvent('user_prompt_submit', {prompt})
        if (submitted.decision === 'deny') {
          output.fail(submitted.reason)
          throw new UserError(`A hook stopped the prompt: ${submitted.reason}`, {hint: 'hanzo-dev hooks list shows the user_prompt_submit hooks'})
        }

        const at = new Date().toISOString()
        recording = startRecording({
          first: saved
            ? {at, cwd, model, provider, type: 'run'}
            : {created_at: at, cwd, id: sessionId, model, project_root: projectRoot, provider, type: 'session', version: TRANSCRIPT_VERSION},
          history: saved?.history ?? [],
          instructions,
          path: saved?.path ?? sessions.pathFor(projectRoot, sessionId),
          warn: options.warn,
        })
        const {recorder} = recording
        tracing = configureCliTracing(config, process.env)
        const result = await Runner.run(agent, prompt, {
          canonicalPath: (path) => resolveToolPath(cwd, path).then((resolved) => resolved.relative, () => null),
          client: recorder.wrap(client),
          cwd,
          compaction:
            config.max_tokens === undefined
              ? undefined
              : {
                  maxTokens: config.max_tokens,
                  onCompacted: (result) => recorder.compacted(result),
                  onPreCompact: async () => void (await sessionEvent('pre_compact')),
                  reserveRecent: config.reserve_recent,
                },
          history: saved?.history,
          maxTokens: config.max_output_tokens,
          maxTurns: options.flags.maxTurns ?? config.max_turns ?? DEFAULT_RUN_MAX_TURNS,
          middleware,
          onEvent(event) {
            recorder.onEvent(event)
            output.event(event)
          },
          permissions,
          registry,
          sessionId,
          signal: interrupt.signal,
        })
        recorder.finish(result.history)
        recorder.end(result.stop)
        output.finish(result, runUsage(recorder, saved, config.pricing))
        if (result.stop === 'cancelled') return 130
        if (result.stop === 'max_turns') {
          options.warn(`stopped after ${result.turns} model requests (--max-turns) before the task was done`)
          return 1
        }

        if (result.stop === 'max_tokens') {
          const limit = config.max_output_tokens === undefined ? "the server's default" : `max_output_tokens ${config.max_output_tokens}`
          options.warn(`the reply was cut at the model's output limit (stop: max_tokens, ${limit}): raise it with hanzo-dev config set max_output_tokens ${suggestedOutputLimit(config.max_output_tokens)}, or ask for a shorter answer`)
          return 1
        }

        return 0
      } catch (error) {
        recording?.recorder.end('error', error instanceof Error ? error.message : String(error))
        if (!(error instanceof ModelError)) throw error
        output.fail(error.message)
        throw new UserError(error.message, {hint: errorHint(error)})
      } finally {
        // Bounded (2 s): a collector that is down never holds the exit.
        await tracing?.shutdown()
        recording?.transcript.close()
        process.off('SIGINT', onSigint)
        await sessionEvent('stop')
        await dispose()
      }
    },
    summary: {model, pricing: config.pricing, sessionId},
  }
}

/** Twice the limit that was hit; with none set, a limit above most servers' defaults. */
function suggestedOutputLimit(current: number | undefined): number {
  return current === undefined ? 16_384 : current * 2
}

interface Recording {
  recorder: SessionRecorder
  transcript: TranscriptFile
}

/**
 * Opens the session's transcript and starts it: a new session with its header, a resumed one
 * with a `run` line. Only once the prompt is on its way: a prompt a hook stopped saves nothing.
 */
function startRecording(options: {path: string; first: SessionHeader | RunLine; history: readonly Message[]; instructions: string; warn(message: string): void}): Recording {
  const transcript = new TranscriptFile(options.path, options.warn)
  transcript.append(options.first)
  const write = (line: TranscriptLine) => transcript.append(line)
  return {recorder: new SessionRecorder({history: options.history, instructions: options.instructions, now: () => new Date(), write}), transcript}
}

/** This run's usage per request and in total, and the session's (earlier runs too), with costs. */
function runUsage(recorder: SessionRecorder, saved: LoadedSession | undefined, pricing: Pricing | undefined): RunUsage {
  const earlier = saved ? usageLines(saved.transcript.lines) : []
  return {
    run: totalUsage(recorder.requests, pricing),
    session: totalUsage([...earlier, ...recorder.requests], pricing),
    turns: turnUsage(recorder.requests, pricing),
  }
}

/** The saved session `--resume` or `--continue` names, loaded; none for a new session. */
async function savedSession(sessions: SessionStore, options: StartRunOptions, projectRoot: string): Promise<LoadedSession | undefined> {
  const {continue: latest, resume} = options.session ?? {}
  const found = resume === undefined ? (latest ? await sessions.latest(projectRoot) : undefined) : await sessions.find(resume)
  if (!found) {
    if (!latest) return undefined
    throw new UserError(`No saved session in ${projectRoot} to continue`, {
      hint: 'hanzo-dev sessions list --all shows the sessions of every project; hanzo-dev run --resume ID carries on one of them',
    })
  }

  const session = await sessions.load(found.path)
  const lines = session.transcript.skipped.map((skipped) => skipped.line)
  if (lines.length > 0) options.warn(`session ${found.id}: skipped line ${lines.join(', ')} of its transcript, cut short by a kill or not readable`)
  return session
}
