import {homedir} from 'node:os'
import type {Config} from '@oclif/core'
import {type AgentSession, type AgentSessionOptions, canonicalize, type Middleware} from '@hanzo-dev/sdk'
import {formatWarning} from '@hanzo-dev/sdk/settings'
import {printable} from '@hanzo-dev/sdk/terminal-text'

import {settingsModel} from '../../core/agent/endpoint.js'
import {settingRank} from '../../core/config/precedence.js'
import type {LoadedConfig} from '../../core/config/types.js'
import {UserError} from '../../core/errors.js'
import {resolvePaths} from '../../core/paths.js'
import {
  DEFAULT_PERMISSION_RULES,
  PermissionGate,
  PermissionPolicy,
  type SessionApprovals,
} from '../../core/permissions/index.js'
import {ToolRegistry, type ToolSource} from '../../core/tools/registry.js'
import {arrivesLate, parseToolScope, scopedToolNames, unknownToolEntry} from '../../core/tools/scope.js'
import {AuditLog, auditLogPath} from '../audit-log.js'
import {resolveRunEndpoint} from '../auth/auth-context.js'
import {hostInput, loadSettings, unsaid} from '../host-context.js'
import {collectContributions, hookTimeoutMs, isTool} from '../plugin-host.js'
import {nestedInstructions} from '../nested-instructions.js'
import {readProjectInstructions, readUserMemory} from '../project-instructions.js'
import {createPrompter} from '../prompt/index.js'
import {readSessionEnvironment} from '../session-environment.js'
import {discoverSkills} from '../skills.js'
import {makeStyle} from '../style.js'
import {BackgroundProcesses, builtinTools, customSubagents, Subagents, subagentTypes} from '../tools/index.js'
import {openCheckpoints} from '../checkpoints/open.js'
import {sessionBudget} from './budget.js'
import {RunInterrupts} from './interrupts.js'
import {loadCustomPrompts} from './custom-prompts.js'
import {clientRequests} from './mcp-requests.js'
import {modelClient, type SessionModel} from './model-client.js'
import {protectedRules} from './protected-rules.js'
import {SessionRecording} from './recording.js'
import {AgentSessionNode, DEFAULT_RUN_MAX_TURNS} from './session.js'

/** The model of a session of tools only (`model: false`): asking it is a bug of the caller's. */
const TOOLS_ONLY: SessionModel = {
  client: {
    sendMessage(): never {
      throw new UserError('This session has tools only: it was opened without a model')
    },
  },
  errorHint: () => undefined,
  listModels: async () => [],
  model: 'none',
  provider: 'none',
}

export interface OpenAgentSessionOptions extends AgentSessionOptions {
  /** The running CLI's oclif Config: where plugin contributions come from. Without it, built-ins only. */
  cliConfig?: Config
  /** Settings the caller loaded already from `cwd` (the CLI's own commands): not loaded again, their warnings not repeated. */
  settings?: LoadedConfig
  /** Where "allow for this session" is kept, when the caller lists it (the chat's `/permissions`): the session's own when left out. */
  approvals?: SessionApprovals
  /**
   * Opened only to list its surface (`hanzo-dev tools`) with `model: false`: the tools are those a
   * session with a model would offer (`task` included), though nothing here can call them.
   */
  surfaceOnly?: boolean
  /** Wait for the tools plugins are still starting (Contribution.ready) before the session is handed over: a one-shot run's. */
  waitForTools?: boolean
}

/**
 * The one place an agent session is put together (ARCHITECTURE.md, "One agent session for
 * every caller"): settings and credentials, the saved session, the model client, the tools
 * (built-ins first, so no plugin can shadow one; then plugin contributions), the permission gate
 * with its prompter and audit log, and the system prompt. `hanzo-dev run`, plugin commands
 * (through the Host port, src/host.ts) and library callers all open it here, so a policy, a hook or the
 * sandbox that applies in one applies in all, sub-sessions included.
 */
export async function openAgentSession(options: OpenAgentSessionOptions): Promise<AgentSession> {
  const {cwd, env} = options
  // Warnings quote plugins, MCP servers and files: through the printer.
  const warn = options.warn ?? ((message: string) => void process.stderr.write(`Warning: ${printable(message)}\n`))
  const loaded = options.settings ?? (await loadSettings({cwd, env}))
  if (!options.settings) for (const w of unsaid(loaded.warnings)) warn(formatWarning(w))
  const {config, permissionRules, projectRoot} = loaded
  const {configDir, dataDir} = resolvePaths(env, homedir())
  // Before the model client: a wrong session id is the first thing to say.
  const recording = await SessionRecording.open({cwd, dataDir, projectRoot, session: options.session, warn})
  const rank = settingRank(loaded)
  const model =
    options.model === false
      ? TOOLS_ONLY
      : await modelClient({
          baseURL: options.baseURL,
          config,
          env,
          fakeModel: options.fakeModel,
          model: options.model,
          rank,
          sessionId: recording.id,
          settingsModel: settingsModel(config, rank),
          warn,
        })
  const overBudget =
    options.maxBudgetUsd === undefined ? undefined : await sessionBudget(options.maxBudgetUsd, config, recording, model)
  const policyOptions = {defaults: DEFAULT_PERMISSION_RULES, protected: await protectedRules(cwd, projectRoot, env)}
  const verdictPolicy = new PermissionPolicy(permissionRules, {...policyOptions, mode: 'prompt'})
  const registry = new ToolRegistry()
  const background = new BackgroundProcesses()
  const webFetch = {
    judge: (url: string) =>
      verdictPolicy.evaluate('web_fetch', {kind: 'fetch', mutating: false, subject: {kind: 'url', url}}),
  }
  const subagents = new Subagents()
  // The task tool starts children of the session made below, once it is.
  const opened: {session?: AgentSessionNode; permissions?: PermissionGate} = {}
  // Project agent files count once the project is trusted (its digest covers them), as its hooks do.
  const projectTrusted = loaded.trust.inert.agents.length === 0
  const types = subagentTypes(await customSubagents({configDir, projectRoot, projectTrusted}, warn))
  for (const warning of types.warnings) warn(warning)
  // A session of tools only (`mcp serve`) has no model for a child to ask.
  const task =
    options.model === false && !options.surfaceOnly
      ? undefined
      : {parent: () => opened.session!, subagents, types: types.types}
  const webSearch = config.web_search && {
    env,
    // The credential a run against Hanzo would carry, looked up when the model first searches.
    hanzoEndpoint: () => resolveRunEndpoint({...config, provider: 'hanzo'}, env, {}, warn),
    settings: config.web_search,
  }
  // The caller's scope (`--tools`) beats the setting.
  const toolScope = options.tools ?? (config.tools?.enabled ? parseToolScope(config.tools.enabled) : 'all')
  const contributed = options.cliConfig
    ? await collectContributions(
        options.cliConfig,
        {
          ...hostInput(loaded, cwd, env),
          tools: toolScope,
          ...(options.mcpServers === false ? {mcpServers: false} : {}),
          ...(options.model === false ? {} : clientRequests({opened: () => opened, prompter: options.prompter})),
        },
        hookTimeoutMs(env),
      )
    : {answers: [], warnings: []}
  for (const warning of contributed.warnings) warn(`plugin ${warning.plugin}: ${warning.message}`)
  const {skills, warnings: skillWarnings} = await discoverSkills({
    configDir,
    plugins: contributed.answers.map(({plugin, value}) => ({dirs: value.skills ?? [], plugin})),
    projectRoot,
    untrusted: loaded.trust.inert.agents,
  })
  for (const warning of skillWarnings) warn(warning)
  const tools = builtinTools({
    exec: {background, envPassthrough: config.exec?.env_passthrough},
    skills,
    task,
    webFetch,
    ...(webSearch ? {webSearch} : {}),
  })
  for (const tool of tools) registry.register(tool, 'builtin')
  const middleware: Middleware[] = []
  const pluginContext: string[] = []
  const notices: string[] = []
  for (const {plugin, pluginType, value} of contributed.answers) {
    for (const tool of value.tools ?? []) {
      const warning = registry.register(tool, pluginType as ToolSource, plugin)
      if (warning) warn(warning)
    }

    middleware.push(...(value.middleware ?? []))
    if (value.context) pluginContext.push(value.context)
    notices.push(...(value.notices ?? []))
  }

  const scope = scopedToolNames(registry, toolScope)
  for (const {plugin, pluginType, value} of contributed.answers) {
    // The session's offered list is this array: what arrives late is offered from the next model request.
    value.watchTools?.((tools) => {
      for (const warning of registry.replace(
        plugin,
        pluginType as ToolSource,
        Array.isArray(tools) ? tools.filter((t) => isTool(t)) : [],
      ))
        warn(warning)
      scope.names.splice(0, scope.names.length, ...scopedToolNames(registry, toolScope).names)
    })
  }

  if (options.waitForTools)
    await Promise.all(contributed.answers.map(({value}) => value.ready?.() ?? Promise.resolve()))
  // Notices are about what tools may do (the sandbox is off): nothing to say to a session without any.
  if (scope.names.length > 0) for (const notice of notices) warn(notice)
  for (const entry of scope.unknown.filter((name) => !arrivesLate(name)))
    warn(
      `${unknownToolEntry(entry)} (the tools are: ${registry
        .list()
        .map((t) => t.definition.name)
        .join(', ')})`,
    )
  const interrupts = new RunInterrupts(options.signal)
  const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY)
  const permissions = (opened.permissions = new PermissionGate({
    ...(options.approvals ? {approvals: options.approvals} : {}),
    audit: new AuditLog(auditLogPath(dataDir)),
    policy: new PermissionPolicy(permissionRules, {...policyOptions, mode: options.permissionMode}),
    prompter:
      options.prompter ??
      createPrompter({
        input: process.stdin,
        interactive,
        interrupt: interrupts.handle,
        output: process.stderr,
        style: makeStyle(process.stderr, env),
      }),
  }))
  const environment = recording.environment(await readSessionEnvironment(cwd, env))
  const instructionsRoot = environment.git?.root ?? projectRoot
  // Outermost: what the model reads is the result after the hooks and the sandbox.
  middleware.unshift(await nestedInstructions(instructionsRoot, cwd, warn))
  // Each session builds its prompt from these and the tools it is offered (a child may have fewer).
  const prompt = {
    customInstructions: config.custom_instructions,
    environment,
    pluginContext,
    projectFiles: await readProjectInstructions(instructionsRoot, cwd, warn),
    skills,
    userMemory: await readUserMemory(configDir),
  }
  // Whatever the workspace (a server's client may pick `/`), no tool reads hanzo-dev's own files.
  const hiddenPaths = await Promise.all(
    [configDir, dataDir, ...(options.hiddenPaths ?? [])].map((path) => canonicalize(path)),
  )
  // Innermost: what a tool is about to change is recorded once the hooks and the sandbox let it run.
  const checkpoints =
    options.model === false || !recording.persisted
      ? undefined
      : await openCheckpoints({
          config,
          cwd,
          dataDir,
          hidden: hiddenPaths,
          prompt: () => recording.prompt,
          session: recording.id,
          warn,
        })
  if (checkpoints) middleware.push(checkpoints.middleware())
  opened.session = new AgentSessionNode(
    {
      background,
      checkpoints,
      prompt,
      config,
      contributions: contributed.answers,
      customPrompts: () => loadCustomPrompts({configDir, projectRoot, untrusted: loaded.trust.inert.agents}, warn),
      cwd,
      env,
      hiddenPaths,
      interrupts,
      middleware,
      model,
      ...(overBudget && {overBudget}),
      permissions,
      recording,
      registry,
      skills,
      subagents,
      verdictPolicy,
      warn,
    },
    {
      history: [...recording.history],
      maxTurns: options.maxTurns ?? config.max_turns ?? DEFAULT_RUN_MAX_TURNS,
      model: model.model,
      systemPrompt: options.systemPrompt,
      tools: scope.names,
    },
  )
  return opened.session
}
