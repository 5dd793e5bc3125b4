import type {AgentSession, SlashCommandContext} from '@hanzo-dev/sdk'

import {SlashCommandRegistry} from '../core/slash/index.js'
import type {ChatSession} from './chat-session.js'

/** The interactive session's own commands get the session itself besides the plugin context. */
export interface ChatCommandContext extends SlashCommandContext {
  chat: ChatSession
}

/** What `/status` and `/permissions` report besides the session. */
export interface ChatFacts {
  session: AgentSession
  permissionMode: string
  projectRoot: string
}

/** The registry with the session's built-ins first, so no plugin can take their names. */
export function builtinCommands(facts: ChatFacts): SlashCommandRegistry<ChatCommandContext> {
  const registry = new SlashCommandRegistry<ChatCommandContext>()
  const add = (name: string, description: string, run: (context: ChatCommandContext) => {message?: string} | undefined, argsHint?: string) =>
    registry.register({argsHint, description, name, run}, 'builtin')
  add('help', 'List the slash commands and keys', () => {
    const names = registry.list().map(({definition}) => `/${definition.name}${definition.argsHint ? ` ${definition.argsHint}` : ''}`)
    const width = Math.max(...names.map((name) => name.length))
    return {message: [
      ...registry.list().map(({definition}, index) => `  ${names[index].padEnd(width)}  ${definition.description}`),
      '',
      '  Enter sends; \\ then Enter, Alt+Enter or Ctrl-J adds a line; Up/Down: history',
      '  Esc interrupts a running turn; Ctrl-C twice or Ctrl-D on an empty prompt exits',
    ].join('\n')}
  })
  add('clear', 'Start the conversation over (the saved session keeps what was said)', ({chat}) => {
    chat.clearConversation()
    return {message: 'The conversation starts over.'}
  })
  add('exit', 'Leave the session', ({chat}) => {
    chat.exit()
    return undefined
  })
  add('vim', 'Toggle vim key bindings for the prompt', ({chat}) => {
    const mode = chat.inputMode === 'vim' ? 'default' : 'vim'
    chat.setInputMode(mode)
    return {message: mode === 'vim' ? 'Vim mode: Esc for Normal mode, i to insert, :q to exit.' : 'Default key bindings.'}
  })
  add('cost', 'Tokens (and cost, when the pricing setting has the model) of this session', ({chat}) => {
    const usage = chat.sessionUsage
    const cost = usage.cost_usd === undefined ? 'no price for this model (the pricing setting)' : `$${usage.cost_usd.toFixed(4)}`
    return {message: `${usage.input_tokens} input tokens, ${usage.output_tokens} output tokens; ${cost}`}
  })
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
  add('permissions', 'How tool calls are allowed in this session', () => ({
    message: `Permission mode: ${facts.permissionMode}. Rules: hanzo-dev config get permissions; change them with hanzo-dev config set, or start with --permission-mode.`,
  }))
  add('model', 'The model this session talks to', () => ({message: `Model: ${facts.session.model} (another one: hanzo-dev chat --model ID)`}))
  return registry
}
