import {join} from 'node:path'

import type {CustomCommand, SlashCommandContext, SlashCommandDefinition} from '@hanzo-dev/sdk'
import {FrontMatterError, parseFrontMatter} from '@hanzo-dev/sdk/front-matter'

import {PROJECT_DIR} from '../core/config/locate.js'
import {commandFileKey, COMMANDS_DIR} from '../core/config/trust.js'
import {SLASH_NAME, SlashCommandRegistry, type SlashCommandSource} from '../core/slash/index.js'
import {nodeConfigIO} from './config-io.js'

/** Where the user's own command files are, below their config directory. */
export const USER_COMMANDS_DIR = 'commands'

export interface CommandFileDirs {
  projectRoot: string
  configDir: string
  /** The project's command files left out for want of trust (LoadedConfig.trust.inert.agents). */
  untrusted: readonly string[]
}

/**
 * Custom slash commands: each `NAME.md` in the project's `.hanzo/commands` (once the project is
 * trusted: trust.ts covers these files) and in the user's commands directory is `/NAME`. Its
 * body is the prompt, `$ARGUMENTS` (and `$1`, `$2`...) replaced by what follows the name; an
 * optional front matter gives `description`, `argument-hint` and `allowed-tools` (the only tools
 * the prompt's turn is offered). The format is Claude Code's, so its command files work here.
 * Project commands are registered first; returns the warnings (a bad file, a name taken).
 */
export async function registerCommandFiles<C extends SlashCommandContext>(
  registry: SlashCommandRegistry<C>,
  dirs: CommandFileDirs,
): Promise<string[]> {
  const {files, warnings} = await loadCommandFiles(dirs)
  for (const {command, path, source} of files) {
    const refused = registry.register(command, source, path)
    if (refused) warnings.push(refused)
  }

  return warnings
}

/**
 * The command files the chat would register, as `mcp serve` offers them (AgentSession.customPrompts):
 * the same files behind the same trust gate, a name kept by the first that has it.
 */
export async function trustedCommandFiles(
  dirs: CommandFileDirs,
): Promise<{commands: CustomCommand[]; warnings: string[]}> {
  const registry = new SlashCommandRegistry()
  const commands: CustomCommand[] = []
  const {files, warnings} = await loadCommandFiles(dirs)
  for (const {command, path, source} of files) {
    const refused = registry.register(command, source, path)
    if (refused) warnings.push(refused)
    else commands.push(command)
  }

  return {commands, warnings}
}

/** Each file's command, the project's first (left out for want of trust), and the warnings of the files that define none. */
async function loadCommandFiles(dirs: CommandFileDirs): Promise<{
  files: Array<{command: CommandFile; path: string; source: SlashCommandSource}>
  warnings: string[]
}> {
  const warnings: string[] = []
  const loaded: Array<{command: CommandFile; path: string; source: SlashCommandSource}> = []
  const sources: Array<{dir: string; source: SlashCommandSource; trusted: (name: string) => boolean}> = [
    {
      dir: join(dirs.projectRoot, PROJECT_DIR, COMMANDS_DIR),
      source: 'project-file',
      trusted: (name) => !dirs.untrusted.includes(commandFileKey(name)),
    },
    {dir: join(dirs.configDir, USER_COMMANDS_DIR), source: 'user-file', trusted: () => true},
  ]
  for (const {dir, source, trusted} of sources) {
    const files = await nodeConfigIO.readTextFiles!(dir, '.md').catch((error: unknown) => {
      warnings.push(error instanceof Error ? error.message : String(error))
      return []
    })
    for (const {name, text} of files) {
      if (!trusted(name)) continue
      const path = join(dir, name)
      const command = commandFromFile(name, text)
      if (typeof command === 'string') warnings.push(`${path}: ${command}`)
      else loaded.push({command, path, source})
    }
  }

  return {files: loaded, warnings}
}

/** A command file's command: a slash command for the chat, and a prompt for `mcp serve`. */
export type CommandFile = SlashCommandDefinition & CustomCommand

/** The command a file defines, or why it defines none. */
export function commandFromFile(file: string, text: string): CommandFile | string {
  const name = file.slice(0, -'.md'.length).toLowerCase()
  if (!SLASH_NAME.test(name))
    return 'ignored: a command file is named NAME.md, NAME a letter then letters, digits or "-"'
  let fields: Record<string, string | string[]> = {}
  let body = text
  if (text.replace(/^\uFEFF/, '').startsWith('---')) {
    try {
      ;({body, fields} = parseFrontMatter(text))
    } catch (error) {
      if (!(error instanceof FrontMatterError)) throw error
      return `ignored: ${error.message}${error.line ? ` (line ${error.line})` : ''}`
    }
  }

  body = body.trim()
  if (body === '') return 'ignored: the file has no prompt after its front matter'
  const field = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : undefined)
  const description = field('description') ?? firstLine(body)
  const allowed = fields['allowed-tools']
  const tools = allowed === undefined ? undefined : toolNames(allowed)
  const expand = (args: string, argv: readonly string[]) => withArguments(body, args, argv)
  return {
    argsHint: field('argument-hint'),
    description,
    expand,
    name,
    placeholders: placeholders(body),
    run: ({args, argv}) => ({prompt: expand(args, argv), ...(tools ? {tools} : {})}),
  }
}

const POSITION = /\$([1-9])/g

/** `$ARGUMENTS` is everything after the name, `$1`...`$9` its words; a body that uses neither gets the arguments appended. */
export function withArguments(body: string, args: string, argv: readonly string[]): string {
  const used = placeholders(body)
  if (!used.arguments && used.positions.length === 0) return args === '' ? body : `${body}\n\n${args}`
  return body.replaceAll('$ARGUMENTS', args).replaceAll(POSITION, (_, index: string) => argv[Number(index) - 1] ?? '')
}

/** What a prompt's body takes: `$ARGUMENTS`, and which of `$1`...`$9`. */
function placeholders(body: string): CustomCommand['placeholders'] {
  const positions = [...new Set([...body.matchAll(POSITION)].map((match) => Number(match[1])))]
  return {arguments: body.includes('$ARGUMENTS'), positions: positions.sort((a, b) => a - b)}
}

/** `Read, Bash(git diff:*)` or a list: tool names or their aliases (a rule's parentheses name no tool). */
function toolNames(value: string | string[]): string[] {
  const names = (Array.isArray(value) ? value : value.split(','))
    .map((entry) => entry.trim().replace(/\(.*\)$/, ''))
    .filter(Boolean)
  return [...new Set(names)]
}

function firstLine(body: string): string {
  const line = body.split('\n', 1)[0].replace(/^#+\s*/, '')
  return line.length > 80 ? `${line.slice(0, 79)}…` : line
}
