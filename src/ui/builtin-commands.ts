import type {AgentSession, ListedModel, SlashCommandContext, SlashCommandDefinition} from '@hanzo-dev/sdk'

import {loadPrices} from '../adapters/prices.js'
import {listSessions} from '../adapters/session-listing.js'
import {SessionStore} from '../adapters/session-store.js'
import type {LoadedConfig} from '../core/config/types.js'
import type {SessionApprovals} from '../core/permissions/session-approvals.js'
import {UserError} from '../core/errors.js'
import {renderCost, renderSessionList} from '../core/sessions/render.js'
import {SlashCommandRegistry} from '../core/slash/index.js'
import type {ChatSession} from './chat-session.js'
import {modelListing} from './model-list.js'

/** The interactive session's own commands get the session itself besides the plugin context. */
export interface ChatCommandContext extends SlashCommandContext {
  chat: ChatSession
}

/** What `/status` and `/permissions` report besides the session. */
export interface ChatFacts {
  session: AgentSession
  permissionMode: string
  projectRoot: string
  dataDir: string
  pricing: LoadedConfig['config']['pricing']
  /** What "allow for this session" allowed: `/permissions` lists it and takes approvals out. */
  approvals: SessionApprovals
  /**
   * Goes on in another session in this UI: `resume`, that saved session's conversation; `model`,
   * this conversation with another model (from the next prompt); `fork`, this conversation in a
   * new session, the saved one left as it is.
   */
  reopen(target: {resume?: string; model?: string; fork?: boolean}): Promise<void>
  /** The setup screen (log in, paste a key, a local server), then this conversation on what it set up; what was set up, or undefined if nothing was. */
  login(): Promise<string | undefined>
  /** `auth logout`, asked on the terminal. */
  logout(): Promise<void>
}

/** What `/help` says of the prompt besides the commands. */
const PROMPT_KEYS = [
  '  Enter sends; \\ then Enter, Alt+Enter or Ctrl-J adds a line; a paste is one prompt; Up/Down: history',
  '  /   the command menu: type to filter, Up/Down to pick, Tab completes, Enter runs',
  '  @path   attaches a file or directory to the prompt (Tab completes the path)',
  '  !command   runs a shell command now; its output goes with your next prompt',
  '  # note   saves the note to memory: the project AGENTS.md or your own (asked)',
  '  Shift+Tab   cycles the mode: default -> accept edits (file edits in the workspace run unasked)',
  '              -> plan (read-only tools; the model ends with a plan for you to approve)',
  '  Esc interrupts a running turn; Esc Esc on an empty prompt: /rewind, to go back to an earlier prompt',
  '  Ctrl-C twice or Ctrl-D on an empty prompt exits',
]

/** `/init`: the model studies the repository and writes its AGENTS.md through fs_write/fs_edit, so the diff is asked about. */
const INIT_PROMPT = `Study this repository and write AGENTS.md at its root: the instructions every coding agent reads before working here.

Look first (read-only): the README, the package or build files, the CI configuration, the layout of the source and test directories, and any existing AGENTS.md, HANZO.md, CLAUDE.md, GEMINI.md, .cursorrules or .github/copilot-instructions.md.

Then write a short, factual AGENTS.md with:
- the commands to install, build, lint and test, and how to run a single test;
- the architecture in a few lines: the main directories and what each holds, and how the parts fit;
- the conventions a newcomer would get wrong (style, naming, error handling, commit messages), taken from the code, not invented.

Leave out generic advice and anything you could not confirm from the files. If AGENTS.md exists, improve it with fs_edit and keep what is still right. Write it with fs_write or fs_edit (the user sees the diff and approves it), then say in two lines what you wrote.`

/** How many sessions `/resume` lists. */
const RESUME_LIST = 10
/** `/help`'s name column: a longer name pushes its own description over rather than everyone's. */
const HELP_NAME_WIDTH = 22

/** The registry with the session's built-ins first, so no plugin can take their names. */
export function builtinCommands(facts: ChatFacts): SlashCommandRegistry<ChatCommandContext> {
  const registry = new SlashCommandRegistry<ChatCommandContext>()
  /** What `/model` listed last: `/model 3` picks from it. */
  let listed: ListedModel[] = []
  const add = (
    name: string,
    description: string,
    run: SlashCommandDefinition<ChatCommandContext>['run'],
    argsHint?: string,
  ) => registry.register({argsHint, description, name, run}, 'builtin')
  add('help', 'List the slash commands and keys', () => {
    const names = registry
      .list()
      .map(({definition}) => `/${definition.name}${definition.argsHint ? ` ${definition.argsHint}` : ''}`)
    const width = Math.min(HELP_NAME_WIDTH, Math.max(...names.map((name) => name.length)))
    return {
      message: [
        ...registry.list().map(({definition}, index) => `  ${names[index].padEnd(width)}  ${definition.description}`),
        '',
        ...PROMPT_KEYS,
      ].join('\n'),
    }
  })
  add('clear', 'Start the conversation over (the saved session keeps what was said)', ({chat}) => {
    chat.clearConversation()
    return {message: 'The conversation starts over.'}
  })
  add('exit', 'Leave the session', ({chat}) => {
    chat.exit()
    return undefined
  })
  add('login', 'Log in, paste an API key or pick a local model server; the conversation goes on', async () => ({
    message: (await facts.login()) ?? 'Nothing changed.',
  }))
  add('logout', 'Log out of a provider (the login is revoked and its credential deleted)', async () => {
    await facts.logout()
    return {message: 'This session keeps its connection until it ends; /login sets up another.'}
  })
  add('vim', 'Toggle vim key bindings for the prompt', ({chat}) => {
    const mode = chat.inputMode === 'vim' ? 'default' : 'vim'
    chat.setInputMode(mode)
    return {
      message: mode === 'vim' ? 'Vim mode: Esc for Normal mode, i to insert, :q to exit.' : 'Default key bindings.',
    }
  })
  add('cost', "This session's tokens and price: turns, commands that ask the model, compactions", async () => ({
    message: renderCost(await facts.session.usage()).join('\n'),
  }))
  add('status', 'Model, session, directory and permission mode', () => ({
    message: [
      `  model        ${facts.session.model}`,
      `  session      ${facts.session.id}`,
      `  directory    ${facts.session.cwd}`,
      `  project      ${facts.projectRoot}`,
      `  permissions  ${facts.permissionMode}`,
      `  tools        ${facts.session.tools.length}: ${facts.session.tools.join(', ')}`,
    ].join('\n'),
  }))
  add(
    'context',
    'The size of the system prompt, section by section, the tool schemas and the conversation, in tokens',
    async () => {
      const {contextReport} = await import('./context-command.js')
      return {message: contextReport(facts.session, await facts.session.contextBudget())}
    },
  )
  add(
    'permissions',
    "The session's approvals and the saved rules, numbered; remove N takes one out",
    async ({argv, cwd}) => {
      const {permissionsCommand} = await import('./permissions-command.js')
      const {approvals, permissionMode} = facts
      return {message: await permissionsCommand(argv, {approvals, cwd, env: process.env, permissionMode})}
    },
    '[remove N]',
  )
  add(
    'bashes',
    'The commands the agent runs in the background; kill ID ends one',
    async ({argv}) => {
      const {bashesCommand} = await import('./bashes-command.js')
      return {message: await bashesCommand(argv, facts.session)}
    },
    '[kill ID]',
  )
  add('skills', 'The skills the agent can load, and where each comes from', async () => {
    const {skillsCommand} = await import('./skills-command.js')
    return {message: skillsCommand(facts.session)}
  })
  add(
    'model',
    'The models the endpoint lists, to pick from; with an ID (or a number from the list), switch to it',
    async ({argv, signal}) => {
      if (!argv[0]) {
        const {lines, models} = await modelListing(facts.session, signal)
        listed = models
        return {
          message: [
            `Models of ${facts.session.provider} (› the one in use):`,
            ...lines,
            '/model N or /model ID switches; the conversation goes on.',
          ].join('\n'),
        }
      }

      const picked = /^\d+$/.test(argv[0]) ? listed[Number(argv[0]) - 1]?.id : argv[0]
      if (!picked) throw new UserError(`There is no model ${argv[0]} in the list: /model lists them`)
      if (picked === facts.session.model) return {message: `Already on ${picked}.`}
      await facts.reopen({model: picked})
      return {message: `Model: ${facts.session.model}. The conversation goes on with it from your next prompt.`}
    },
    '[ID]',
  )
  add(
    'compact',
    'Summarize the conversation to free context (the last turns stay)',
    async ({args, signal}) => {
      const result = await facts.session.compact({focus: args || undefined, signal})
      if (result.strategy === 'none')
        return {
          message: 'Nothing to compact yet: the conversation is no longer than the turns always kept (reserve_recent).',
        }
      const how = result.strategy === 'summary' ? 'a summary' : `a digest (${result.fallbackReason ?? 'no summary'})`
      return {
        message: `Compacted ${result.compactedCount} messages into ${how}, about ${result.tokensSaved} tokens freed.`,
      }
    },
    '[focus]',
  )
  add(
    'resume',
    "This project's recent sessions; with an ID, carry that one on here",
    async ({argv}) => {
      const store = SessionStore.at(facts.dataDir)
      if (argv[0]) {
        const found = await store.find(argv[0]).catch((error: unknown) => {
          throw error instanceof UserError ? new Error(error.message) : error
        })
        if (found.id === facts.session.id) return {message: 'That is this session.'}
        await facts.reopen({resume: found.id})
        return {message: `Resumed session ${found.id}: the conversation goes on from here.`}
      }

      const warnings: string[] = []
      const sessions = await listSessions(store, {
        limit: RESUME_LIST,
        prices: await loadPrices(facts.pricing),
        projectRoot: facts.projectRoot,
        warn: (message) => warnings.push(message),
      })
      if (sessions.length === 0) return {message: `No saved sessions in ${facts.projectRoot}.`}
      return {
        message: [
          ...renderSessionList(sessions, {allProjects: false}),
          ...warnings,
          '',
          '/resume ID carries one on here.',
        ].join('\n'),
      }
    },
    '[ID]',
  )
  add('fork', 'Go on in a new session from a copy of this conversation; this one stays as it is', async () => {
    const from = facts.session.id
    if (!(await SessionStore.at(facts.dataDir).has(from)))
      return {message: 'Nothing to fork yet: a session is saved once its first prompt is sent.'}
    await facts.reopen({fork: true})
    return {message: `Forked session ${facts.session.id} from ${from}: the conversation goes on in the new one.`}
  })
  /** One for the chat: `/redo` puts back what this chat's `/undo` took back. */
  let rewinds: import('./rewind-command.js').ChatRewind | undefined
  const rewinder = async () => (rewinds ??= new (await import('./rewind-command.js')).ChatRewind(facts))
  add(
    'rewind',
    'Go back to before an earlier prompt: the code, the conversation or both, with a preview first',
    async ({argv, chat}) => (await rewinder()).rewind(argv, chat),
    '[N]',
  )
  add('undo', "Take back the last prompt's changes and conversation; the prompt comes back to edit", async ({chat}) =>
    (await rewinder()).undo(chat),
  )
  add('redo', 'Put back what the last /undo took back, if nothing was sent since', async ({chat}) =>
    (await rewinder()).redo(chat),
  )
  add(
    'init',
    'Have the agent study this repository and write (or improve) its AGENTS.md',
    ({args}) => ({prompt: args ? `${INIT_PROMPT}\n\nThe user adds: ${args}` : INIT_PROMPT}),
    '[what to stress]',
  )
  return registry
}
