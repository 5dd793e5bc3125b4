import {homedir} from 'node:os'
import {stripVTControlCharacters} from 'node:util'

import type {AgentSession} from '@hanzo-dev/sdk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import type {OpenAgentSessionOptions} from '../adapters/agent-session/index.js'
import {registerCommandFiles} from '../adapters/custom-commands.js'
import {memoryFiles} from '../adapters/memory-notes.js'
import {loadPrices} from '../adapters/prices.js'
import {type SessionChoice, SessionStore} from '../adapters/session-store.js'
import {makeStyle} from '../adapters/style.js'
import {type Diverted, divertWrites} from '../cli/divert-writes.js'
import type {LoadedConfig} from '../core/config/types.js'
import {SessionApprovals} from '../core/permissions/session-approvals.js'
import {NoCredentialError, UserError} from '../core/errors.js'
import {loadUserSettings} from '../cli/user-settings.js'
import {resolvePaths} from '../core/paths.js'
import type {SessionPermissionMode} from '../core/permissions/policy.js'
import {renderSession} from '../core/sessions/render.js'
import {summarize} from '../core/sessions/summary.js'
import {lastPlan} from '../core/sessions/transcript.js'
import {builtinCommands, type ChatFacts} from './builtin-commands.js'
import {ChatSession, type Earlier} from './chat-session.js'
import {PromptHistory} from './prompt-history.js'

export interface StartChatOptions {
  baseURL?: string
  cliConfig: OpenAgentSessionOptions['cliConfig']
  dataDir: string
  fakeModel?: string
  firstPrompt?: string
  loaded: LoadedConfig
  model?: string
  permissionMode: SessionPermissionMode
  session: {continue?: boolean; resume?: string; fork?: boolean}
  /** `--tools`: left out, the `tools.enabled` setting decides. */
  tools?: OpenAgentSessionOptions['tools']
}

/**
 * Runs the UI and opens the agent session behind it: the prompt is on screen before the plugins
 * and their servers have started, and takes keys meanwhile. What came before (--continue) is
 * shown once the session is open. A session that cannot open ends the UI, then rejects here.
 */
export async function startChat(options: StartChatOptions): Promise<void> {
  // The setup screen (a first run, /login) may change the settings: sessions opened after it read them anew.
  let loaded = options.loaded
  const style = makeStyle(process.stdout)
  const history = await PromptHistory.open(options.dataDir, loaded.projectRoot)
  const facts = {
    approvals: new SessionApprovals(),
    dataDir: options.dataDir,
    permissionMode: options.permissionMode,
    pricing: loaded.config.pricing,
    projectRoot: loaded.projectRoot,
  } as ChatFacts
  const commands = builtinCommands(facts)
  const {configDir} = resolvePaths(process.env, homedir())
  const fileWarnings = await registerCommandFiles(commands, {
    configDir,
    projectRoot: loaded.projectRoot,
    untrusted: loaded.trust.inert.agents,
  })
  const cwd = process.cwd()
  const chat = new ChatSession({
    commands,
    cwd,
    history,
    inputMode: loaded.config.input_mode ?? 'default',
    memory: memoryFiles(loaded.projectRoot, configDir),
    permissionMode: options.permissionMode,
    style,
    terminal: {input: process.stdin, output: process.stdout},
  })
  // Once the UI is up, warnings go above the prompt: stderr would tear the screen.
  const note = (message: string) => chat.say(`Warning: ${message}`, style.yellow)
  /** The setup screen, in place of the chat until it is done; what was set up, or undefined when the user quit. */
  const setup = async () => {
    const {runSetup} = await import('../cli/onboarding.js')
    const done = await chat.suspend(() => runSetup({config: loaded.config, cwd, env: process.env, warn: note}))
    if (done) loaded = await loadUserSettings()
    return done
  }

  let model = options.model
  // A reopen (a rewind, `/model`) would say again what opening the session said: each once.
  const openWarnings = new Set<string>()
  let inOpen = false
  const warn = (message: string) => {
    if (inOpen && openWarnings.has(message)) return
    if (inOpen) openWarnings.add(message)
    note(message)
  }
  const open = async (saved: StartChatOptions['session']) => {
    // Imported here, not at the top: the prompt is drawn before the agent loop's modules load.
    const {openAgentSession} = await import('../adapters/agent-session/index.js')
    inOpen = true
    return openAgentSession({
      approvals: facts.approvals,
      baseURL: options.baseURL,
      cliConfig: options.cliConfig,
      cwd,
      env: process.env,
      fakeModel: options.fakeModel,
      model,
      permissionMode: options.permissionMode,
      prompter: chat.prompter,
      session: saved,
      settings: loaded,
      tools: options.tools,
      warn,
    }).finally(() => {
      inOpen = false
    })
  }

  let session: AgentSession | undefined
  // No credential yet (a first run): the setup screen, then the session it set up.
  const firstOpen = open(options.session).catch(async (error: unknown) => {
    if (!(error instanceof NoCredentialError)) throw error
    chat.say(`Welcome to hanzo-dev. ${error.message}: set up a model to talk to.`, style.bold)
    const done = await setup()
    if (!done)
      throw new UserError('No model is set up', {hint: 'run hanzo-dev again to set one up, or hanzo-dev auth login'})
    chat.say(done, style.dim)
    return open(options.session)
  })
  // A plugin's commands that arrive late (an MCP server's prompts) join, and its notices show, while this session is the chat's.
  const followCommands = (opened: AgentSession) => {
    opened.onSlashCommandsChanged?.(() => {
      if (session === opened) for (const warning of commands.replaceContributed(opened.slashCommands())) note(warning)
    })
    opened.onPluginNotice?.((line) => {
      if (session === opened) chat.say(oneLine(line), style.dim)
    })
  }
  const opening = firstOpen.then(async (opened) => {
    session = opened
    facts.session = opened
    for (const warning of fileWarnings) note(warning)
    // After the built-ins and command files: the registry refuses a name one of them (or an earlier plugin) has.
    for (const warning of commands.registerContributed(opened.slashCommands())) note(warning)
    followCommands(opened)
    return {
      ...(options.session.continue || options.session.resume
        ? await earlier(options.session, options)
        : NOTHING_EARLIER),
      session: opened,
    }
  })
  // `/resume ID`, `/model ID`, `/fork`: the next session is opened before this one closes, so a failure leaves the chat as it was.
  facts.reopen = async (target) => {
    const current = session!
    const saved = await SessionStore.at(options.dataDir).has(current.id)
    const previous = model
    if (target.model) model = target.model
    const resume = target.resume ?? (saved ? current.id : undefined)
    const next = await open({fork: target.fork && resume !== undefined, resume}).catch((error: unknown) => {
      model = previous
      throw error
    })
    await current.close()
    session = next
    facts.session = next
    for (const warning of commands.replaceContributed(next.slashCommands())) note(warning)
    followCommands(next)
    chat.switchTo(next, target.resume ? await earlier({resume: next.id}, options) : undefined)
  }

  facts.login = async () => {
    const done = await setup()
    if (done) await facts.reopen({})
    return done
  }

  facts.logout = () => chat.suspend(async () => void (await options.cliConfig?.runCommand('auth:logout', [])))

  const banner = [
    {paint: style.bold, text: `hanzo-dev · ${tildePath(cwd)}`},
    {paint: style.dim, text: '/help for commands · Esc interrupts · Ctrl-C twice exits'},
  ]
  // Whatever else writes to the terminal's stderr while the UI is up (a plugin's warning during a
  // turn, Node's own) goes above the prompt a line at a time: under the cursor it would tear the screen.
  // While the chat has given the terminal away (the setup screen's prompts), stderr is theirs.
  let pending = ''
  const diverted: Diverted | undefined = process.stderr.isTTY
    ? divertWrites(process.stderr, (text) => {
        if (chat.suspended) return diverted!.write(text)
        const lines = (pending + text).split('\n')
        pending = lines.pop()!
        for (const line of lines) chat.say(stripVTControlCharacters(line), style.yellow)
      })
    : undefined
  try {
    await chat.start(opening, banner, options.firstPrompt)
  } finally {
    diverted?.restore()
    if (pending) process.stderr.write(`${pending}\n`)
    // Exited while it was still opening: it is closed as soon as it is open.
    await opening.then(
      () => session?.close(),
      () => undefined,
    )
  }

  await opening
}

const NOTHING_EARLIER: Earlier = {earlier: [], plan: []}

/** The conversation so far of a continued session, as `sessions show` prints it, and the plan it left. */
async function earlier(choice: SessionChoice, options: StartChatOptions): Promise<Earlier> {
  const store = SessionStore.at(options.dataDir)
  // A fork's conversation is the one it copied: the fork itself is not saved yet.
  const stored = await store.chosen(choice, options.loaded.projectRoot).catch(() => undefined)
  if (!stored) return NOTHING_EARLIER
  const transcript = await store.read(stored.path)
  const prices = await loadPrices(options.loaded.config.pricing)
  return {earlier: [...renderSession(summarize(transcript, prices), transcript), ''], plan: lastPlan(transcript.lines)}
}

function tildePath(path: string): string {
  const home = homedir()
  return path === home || path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path
}
