import {randomUUID} from 'node:crypto'
import {realpath} from 'node:fs/promises'
import {homedir} from 'node:os'
import {basename, dirname, join} from 'node:path'
import type {Config} from '@oclif/core'
import type {Middleware, SessionEventInput} from '@hanzo-dev/sdk'

import {createOpenAIClient} from '../adapters/api/openai-client.js'
import {AuditLog, auditLogPath} from '../adapters/audit-log.js'
import {trustStorePath} from '../adapters/trust-store.js'
import {hostInput} from '../adapters/host-context.js'
import {collectContributions, hookTimeoutMs} from '../adapters/plugin-host.js'
import {readProjectInstructions} from '../adapters/project-instructions.js'
import {createPrompter} from '../adapters/prompt/index.js'
import {builtinTools} from '../adapters/tools/index.js'
import {resolveToolPath} from '../adapters/tools/workspace-path.js'
import {Agent, Runner} from '../core/agent/runner.js'
import {buildSystemPrompt} from '../core/agent/system-prompt.js'
import {type ApiClient, ModelError} from '../core/agent/types.js'
import type {LoadedConfig} from '../core/config/types.js'
import {UserError} from '../core/errors.js'
import {resolvePaths} from '../core/paths.js'
import {DEFAULT_PERMISSION_RULES, PermissionGate, PermissionPolicy, protectedPathRules, type SessionPermissionMode} from '../core/permissions/index.js'
import {ToolRegistry, type ToolSource} from '../core/tools/registry.js'
import {resolveRunEndpoint} from './auth-context.js'
import type {RunOutput, RunSummary} from './run-output.js'
import {fireSessionEvent} from './session-events.js'

export const DEFAULT_RUN_MAX_TURNS = 25

export interface StartRunOptions {
  cliConfig: Config
  loaded: LoadedConfig
  flags: {model?: string; baseURL?: string; maxTurns?: number}
  permissionMode: SessionPermissionMode
  /** A model script to replay instead of a server (hidden `--fake-model`). */
  fakeModel?: string
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
  const {client, model} = await modelClient(options)
  const sessionId = randomUUID()
  const registry = new ToolRegistry()
  for (const tool of builtinTools()) registry.register(tool, 'builtin')
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
  }

  const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY)
  const permissions = new PermissionGate({
    audit: new AuditLog(auditLogPath(resolvePaths(process.env, homedir()).dataDir), options.warn),
    policy: new PermissionPolicy(permissionRules, {defaults: DEFAULT_PERMISSION_RULES, mode: options.permissionMode, protected: await protectedRules(cwd)}),
    prompter: createPrompter({input: process.stdin, interactive, output: process.stderr}),
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
      const controller = new AbortController()
      const interrupt = () => (controller.signal.aborted ? process.exit(130) : controller.abort())
      process.on('SIGINT', interrupt)
      try {
        await sessionEvent('session_start')
        const submitted = await sessionEvent('user_prompt_submit', {prompt})
        if (submitted.decision === 'deny') {
          output.fail(submitted.reason)
          throw new UserError(`A hook stopped the prompt: ${submitted.reason}`, {hint: 'hanzo-dev hooks list shows the user_prompt_submit hooks'})
        }

        const result = await Runner.run(agent, prompt, {
          canonicalPath: (path) => resolveToolPath(cwd, path).then((resolved) => resolved.relative, () => null),
          client,
          cwd,
          maxTurns: options.flags.maxTurns ?? config.max_turns ?? DEFAULT_RUN_MAX_TURNS,
          middleware,
          onEvent: (event) => output.event(event),
          permissions,
          registry,
          sessionId,
          signal: controller.signal,
        })
        output.finish(result)
        if (result.stop === 'cancelled') return 130
        if (result.stop === 'max_turns') {
          options.warn(`stopped after ${result.turns} model requests (--max-turns) before the task was done`)
          return 1
        }

        return 0
      } catch (error) {
        if (!(error instanceof ModelError)) throw error
        output.fail(error.message)
        throw new UserError(error.message, {hint: modelErrorHint(error)})
      } finally {
        process.off('SIGINT', interrupt)
        await sessionEvent('stop')
        await dispose()
      }
    },
    summary: {model, sessionId},
  }
}

async function modelClient(options: StartRunOptions): Promise<{client: ApiClient; model: string}> {
  if (options.fakeModel) {
    const [{createScriptedClient}, {ScriptError}] = await Promise.all([import('../testing/fake-model/scripted-client.js'), import('../testing/fake-model/script.js')])
    const client = await createScriptedClient(options.fakeModel).catch((error: unknown) => {
      throw error instanceof ScriptError ? new UserError(error.message, {exitCode: 2}) : error
    })
    return {client, model: options.flags.model ?? client.model}
  }

  const endpoint = await resolveRunEndpoint(options.loaded.config, process.env, options.flags, options.warn)
  const client = createOpenAIClient({api: endpoint.api, apiKey: endpoint.apiKey, baseURL: endpoint.baseURL, maxRetries: endpoint.maxRetries})
  return {client, model: endpoint.model}
}

function modelErrorHint(error: ModelError): string | undefined {
  if (error.status === 401 || error.status === 403) return 'check your API key: `hanzo-dev auth login`, or HANZO_API_KEY'
  if (error.status === 402) return 'the account behind this key has no credit left'
  if (error.status === 404) return 'check the model id (--model) and the base URL'
  return undefined
}

/**
 * The files that configure hanzo-dev outside the project (user settings, credentials, the trust
 * store), protected from the agent's tools like the project's own settings: they matter when the
 * workspace holds them (the agent runs in the home directory) or a command names them.
 */
async function protectedRules(cwd: string) {
  const paths = resolvePaths(process.env, homedir())
  const files = [paths.userSettings, paths.credentials, `${paths.credentials}.lock`, trustStorePath(paths.dataDir)]
  return protectedPathRules({protectedFiles: await Promise.all(files.map((file) => canonicalFile(file))), workspaceRoot: await realpath(cwd)})
}

/** The path with its directory's symlinks resolved (the file itself may not exist yet). */
async function canonicalFile(file: string): Promise<string> {
  return join(await realpath(dirname(file)).catch(() => dirname(file)), basename(file))
}
