import type {ContributedSlashCommand, SlashCommandContext, SlashCommandDefinition} from '@hanzo-dev/sdk'

import {closest} from '../closest.js'
import {parseSlashLine, SLASH_NAME} from './parse.js'

/**
 * Where a command came from: the interactive session's own, a plugin of that type, or a command
 * file (`.hanzo/commands/*.md` of the project, or the user's own commands directory).
 */
export type SlashCommandSource = 'builtin' | 'core' | 'user' | 'link' | 'dev' | 'project-file' | 'user-file'

const PLUGIN_SOURCES: ReadonlySet<SlashCommandSource> = new Set(['core', 'user', 'link', 'dev'])

export interface RegisteredSlashCommand<C extends SlashCommandContext = SlashCommandContext> {
  definition: SlashCommandDefinition<C>
  source: SlashCommandSource
  /** The plugin that contributed it. */
  origin?: string
}

/** What a prompt line asks for, once the registry has looked at it. */
export type SlashResolution<C extends SlashCommandContext = SlashCommandContext> =
  | {kind: 'text'; text: string}
  | {kind: 'command'; command: RegisteredSlashCommand<C>; args: string; argv: string[]}
  /** A command-shaped line naming no command: `message` says so, with the near miss if there is one. */
  | {kind: 'unknown'; name: string; suggestion?: string; message: string}

/** Longer names do not fit the command menu's column. */
const MAX_NAME = 32
/** An MCP prompt's name (`mcp__<server>__<prompt>`) has room for both parts, as an MCP tool's does. */
const MAX_MCP_NAME = 64

/**
 * The slash commands of one interactive session. As with tools, the first command registered
 * under a name keeps it and later ones are refused with a warning naming both: the session
 * registers its built-ins first, so a plugin can never shadow `/exit` or `/permissions`.
 */
export class SlashCommandRegistry<C extends SlashCommandContext = SlashCommandContext> {
  private readonly commands = new Map<string, RegisteredSlashCommand<C>>()

  /** Registers `definition`; returns a warning instead when it is refused. */
  register(definition: SlashCommandDefinition<C>, source: SlashCommandSource, origin?: string): string | undefined {
    const from = describe(source, origin)
    const shown = `/${String(definition.name)}`
    if (
      typeof definition.name !== 'string' ||
      !SLASH_NAME.test(definition.name) ||
      definition.name.length > (definition.name.startsWith('mcp__') ? MAX_MCP_NAME : MAX_NAME)
    ) {
      return `slash command ${shown} from ${from} ignored: a name is a lower-case letter, then up to ${MAX_NAME - 1} lower-case letters, digits or "-" (an MCP prompt's, mcp__server__prompt, up to ${MAX_MCP_NAME} in all)`
    }

    if (
      typeof definition.description !== 'string' ||
      definition.description.trim() === '' ||
      typeof definition.run !== 'function'
    ) {
      return `slash command ${shown} from ${from} ignored: it needs a description and a run function`
    }

    const existing = this.commands.get(definition.name)
    if (existing)
      return `slash command ${shown} from ${from} ignored: ${describe(existing.source, existing.origin)} already provides it`
    this.commands.set(definition.name, {definition, origin, source})
    return undefined
  }

  /** Plugins' commands (AgentSession.slashCommands), after what is registered already; returns the warnings of those refused. */
  registerContributed(commands: readonly ContributedSlashCommand[]): string[] {
    return commands.flatMap(({definition, plugin, pluginType}) => this.register(definition, pluginType, plugin) ?? [])
  }

  /** Another session's plugin commands in place of the current ones (the chat switched sessions); the built-ins and command files stay. */
  replaceContributed(commands: readonly ContributedSlashCommand[]): string[] {
    for (const [name, command] of this.commands) if (PLUGIN_SOURCES.has(command.source)) this.commands.delete(name)
    return this.registerContributed(commands)
  }

  get(name: string): RegisteredSlashCommand<C> | undefined {
    return this.commands.get(name)
  }

  /** In registration order: built-ins first. */
  list(): RegisteredSlashCommand<C>[] {
    return [...this.commands.values()]
  }

  /** Reads a prompt line (see parse.ts for what counts as a command). */
  resolve(input: string): SlashResolution<C> {
    const line = parseSlashLine(input)
    if (line.kind === 'text') return line
    const command = this.commands.get(line.name)
    if (command) return {args: line.args, argv: line.argv, command, kind: 'command'}
    const suggestion = closest(line.name, this.commands.keys())
    // Without a near miss the line may have been meant as text (`/tmp` alone): say how to send it.
    const hint = suggestion
      ? `Did you mean /${suggestion}?`
      : `${this.commands.has('help') ? 'Type /help for the list, or s' : 'S'}tart with // to send it as text.`
    const message = `Unknown command /${line.name}. ${hint}`
    return {kind: 'unknown', message, name: line.name, suggestion}
  }
}

function describe(source: SlashCommandSource, origin: string | undefined): string {
  if (source === 'builtin') return 'the interactive session'
  if (source === 'project-file' || source === 'user-file') return `the command file ${origin}`
  return origin ? `${source} plugin "${origin}"` : `a ${source} plugin`
}
