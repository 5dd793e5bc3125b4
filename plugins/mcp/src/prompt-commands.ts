import type {SlashCommandDefinition, SlashCommandResult} from '@hanzo-dev/sdk'
import type {GetPromptResult, Prompt} from '@modelcontextprotocol/sdk/types.js'

import type {McpConnection} from './connection.js'
import {McpServerError, serverErrorText} from './server-error.js'
import {resourceText, visibleText} from './tool-result.js'

/** What every prompt command's name starts with, as the slash parser accepts it (`/mcp__server__prompt`). */
const PREFIX = 'mcp__'
/** The parser's limit for these names. */
const MAX_NAME = 64

/** `/mcp__<server>__<prompt>`: lower case, anything but letters, digits, `_` and `-` as `-`. */
export function promptCommandName(server: string, prompt: string): string {
  return `${PREFIX}${server}__${prompt}`
    .toLowerCase()
    .replaceAll(/[^a-z0-9_-]/g, '-')
    .slice(0, MAX_NAME)
}

/**
 * The prompts of the session's connected servers as slash commands: `/mcp__everything__args-prompt
 * Paris state=France` gets the prompt with its arguments (in the prompt's order, or `name=value`)
 * and sends its messages as the user's prompt, embedded resources as context. A server that
 * cannot list its prompts is left out with a warning.
 */
export async function promptCommands(
  connections: readonly McpConnection[],
  warn: (message: string) => void,
): Promise<SlashCommandDefinition[]> {
  const lists = await Promise.all(
    connections
      .filter((c) => c.serverCapabilities?.prompts)
      .map(async (connection) => {
        try {
          return (await connection.prompts()).map((prompt) => promptCommand(connection, prompt))
        } catch (error) {
          warn(error instanceof Error ? error.message : String(error))
          return []
        }
      }),
  )
  return lists.flat()
}

function promptCommand(connection: McpConnection, prompt: Prompt): SlashCommandDefinition {
  const args = prompt.arguments ?? []
  const usage = args.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ')
  const name = promptCommandName(connection.name, prompt.name)
  const about = [prompt.title, prompt.description].filter(Boolean).join(': ')
  return {
    ...(usage ? {argsHint: usage} : {}),
    description: visibleText(`${about || prompt.name} (MCP prompt of ${connection.name})`),
    name,
    ...(connection.serverCapabilities?.completions
      ? {complete: async (typed: string, signal: AbortSignal) => completeArgument(connection, prompt, typed, signal)}
      : {}),
    async run(context) {
      const given = promptArguments(prompt, context.args)
      if (typeof given === 'string') return {message: `${given}\nusage: /${name}${usage ? ` ${usage}` : ''}`}
      try {
        return promptMessages(await connection.getPrompt(prompt.name, given, context.signal), connection.name)
      } catch (error) {
        if (!(error instanceof McpServerError)) throw error
        return {message: serverErrorText(error)}
      }
    },
  }
}

/**
 * What the last typed argument may become, as the server completes it (`completion/complete`
 * with the arguments before it as context): a positional one by its place, `name=` by its name.
 */
async function completeArgument(
  connection: McpConnection,
  prompt: Prompt,
  typed: string,
  signal: AbortSignal,
): Promise<string[]> {
  const last = /\S*$/.exec(typed)![0]
  const before = promptArguments(
    {...prompt, arguments: prompt.arguments?.map((a) => ({...a, required: false}))},
    typed.slice(0, typed.length - last.length),
  )
  if (typeof before === 'string') return []
  const named = /^([^=\s]+)=(.*)$/.exec(last)
  const argument = named
    ? prompt.arguments?.find((a) => a.name === named[1])
    : prompt.arguments?.find((a) => before[a.name] === undefined)
  if (!argument) return []
  const value = named ? named[2] : last
  const {values} = await connection.complete(
    {
      argument: {name: argument.name, value},
      context: {arguments: before},
      ref: {name: prompt.name, type: 'ref/prompt'},
    },
    signal,
  )
  return values.map((v) => (named ? `${argument.name}=${v}` : v))
}

/** The typed arguments by name, or what is wrong with them. A value with spaces is quoted: `"New York"`. */
export function promptArguments(prompt: Prompt, typed: string): Record<string, string> | string {
  const declared = prompt.arguments ?? []
  const values: Record<string, string> = {}
  let next = 0
  for (const [, quoted, bare] of typed.matchAll(/"([^"]*)"|(\S+)/g)) {
    const named = bare === undefined ? undefined : /^([^=\s]+)=(.*)$/.exec(bare)
    if (named && declared.some((a) => a.name === named[1])) {
      values[named[1]] = named[2]
      continue
    }

    while (next < declared.length && values[declared[next].name] !== undefined) next++
    if (next >= declared.length) return `too many arguments: ${prompt.name} takes ${declared.length}`
    values[declared[next++].name] = quoted ?? bare
  }

  const missing = declared.filter((a) => a.required && values[a.name] === undefined).map((a) => a.name)
  return missing.length > 0 ? `missing argument${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}` : values
}

/** The prompt's messages as the user's next prompt; its embedded resources as context. */
export function promptMessages(result: GetPromptResult, server: string): SlashCommandResult {
  const context: string[] = []
  const roles = new Set(result.messages.map((m) => m.role))
  const lines = result.messages.flatMap(({content, role}) => {
    let text: string
    if (content.type === 'text') text = content.text
    else if (content.type === 'resource') {
      context.push(resourceText(content.resource, server))
      return []
    } else if (content.type === 'resource_link') text = `[resource link ${content.uri}]`
    else text = `[${content.type} ${'mimeType' in content ? content.mimeType : ''}]`
    // One speaker: the messages are the prompt; a conversation keeps who said what.
    return [roles.size > 1 ? `${role}: ${text}` : text]
  })
  const prompt = visibleText(lines.join('\n\n'))
  return {
    ...(context.length > 0 ? {context: visibleText(context.join('\n\n'))} : {}),
    ...(prompt ? {prompt} : {message: 'The prompt has no text to send.'}),
  }
}
