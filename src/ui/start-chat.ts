import {homedir} from 'node:os'

import type {AgentSession} from '@hanzo-dev/sdk'

import {openAgentSession, type OpenAgentSessionOptions} from '../adapters/agent-session/index.js'
import {SessionStore} from '../adapters/session-store.js'
import {makeStyle} from '../adapters/style.js'
import type {LoadedConfig} from '../core/config/types.js'
import type {SessionPermissionMode} from '../core/permissions/policy.js'
import {renderSession} from '../core/sessions/render.js'
import {summarize} from '../core/sessions/summary.js'
import {builtinCommands, type ChatFacts} from './builtin-commands.js'
import {ChatSession} from './chat-session.js'
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
  session: {continue?: boolean; resume?: string}
  warn(message: string): void
}

/** Opens the agent session with the chat's prompter, shows what came before (--continue), and runs the UI. */
export async function startChat(options: StartChatOptions): Promise<void> {
  const {loaded} = options
  const style = makeStyle(process.stdout)
  const history = await PromptHistory.open(options.dataDir, loaded.projectRoot)
  const facts = {dataDir: options.dataDir, permissionMode: options.permissionMode, pricing: loaded.config.pricing, projectRoot: loaded.projectRoot} as ChatFacts
  const commands = builtinCommands(facts)
  const chat = new ChatSession({
    commands,
    contextBudget: loaded.config.max_tokens,
    history,
    inputMode: loaded.config.input_mode ?? 'default',
    permissionMode: options.permissionMode,
    style,
    terminal: {input: process.stdin, output: process.stdout},
  })
  let model = options.model
  const open = (saved: StartChatOptions['session'], warn: (message: string) => void) =>
    openAgentSession({
      baseURL: options.baseURL,
      cliConfig: options.cliConfig,
      cwd: process.cwd(),
      env: process.env,
      fakeModel: options.fakeModel,
      model,
      permissionMode: options.permissionMode,
      prompter: chat.prompter,
      session: saved,
      settings: loaded,
      warn,
    })
  let session = await open(options.session, options.warn)
  facts.session = session
  // After the built-ins: the registry refuses a name one of them (or an earlier plugin) has.
  for (const warning of commands.registerContributed(session.slashCommands())) options.warn(warning)
  // `/resume ID`, `/model ID`: the next session is opened before this one closes, so a failure leaves the
  // chat as it was. Its warnings go above the prompt: stderr would tear the screen.
  facts.reopen = async (target) => {
    const note = (message: string) => chat.print(style.yellow(`Warning: ${message}`))
    const saved = await SessionStore.at(options.dataDir).find(session.id).then(() => true, () => false)
    const previous = model
    if (target.model) model = target.model
    const next = await open({resume: target.resume ?? (saved ? session.id : undefined)}, note).catch((error: unknown) => {
      model = previous
      throw error
    })
    await session.close()
    session = next
    facts.session = next
    for (const warning of commands.replaceContributed(next.slashCommands())) note(warning)
    chat.switchTo(next, target.resume ? await earlier(next, options) : [])
  }

  try {
    const before = options.session.continue || options.session.resume ? await earlier(session, options) : []
    const banner = [
      ...before,
      style.bold(`hanzo-dev · ${session.model} · ${tildePath(session.cwd)}`),
      style.dim('/help for commands · Esc interrupts · Ctrl-C twice exits'),
    ]
    await chat.start(session, banner, options.firstPrompt)
  } finally {
    await session.close()
  }
}

/** The conversation so far of a continued session, as `sessions show` prints it. */
async function earlier(session: AgentSession, options: StartChatOptions): Promise<string[]> {
  const store = SessionStore.at(options.dataDir)
  const stored = await store.find(session.id).catch(() => undefined)
  if (!stored) return []
  const transcript = await store.read(stored.path)
  return [...renderSession(summarize(transcript, options.loaded.config.pricing), transcript), '']
}

function tildePath(path: string): string {
  const home = homedir()
  return path === home || path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path
}
