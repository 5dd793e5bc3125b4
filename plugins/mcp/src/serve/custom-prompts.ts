import type {AgentSession, CustomAgent, CustomCommand} from '@hanzo-dev/sdk'
import type {Server} from '@modelcontextprotocol/sdk/server/index.js'
import type {GetPromptResult, Prompt, PromptArgument} from '@modelcontextprotocol/sdk/types.js'

import {type Completer, completeFrom} from './completion.js'
import {page} from './page.js'

/** What the server adds to its capabilities when it offers the custom commands and agents. */
export const PROMPT_CAPABILITIES = {prompts: {}}

/** An agent's prompt name: a command file cannot have it (its names hold no "_"), so the two never clash. */
export const AGENT_PREFIX = 'agent__'

/** A prompt as served: what prompts/list shows, the choices of its arguments, and its text given the arguments. */
interface ServedPrompt {
  prompt: Prompt
  choices: ReadonlyMap<string, readonly string[]>
  text(args: Readonly<Record<string, string>>): string
}

/**
 * The custom slash commands (each as the chat has it: `/NAME`) and the agents (`agent__NAME`)
 * the session trusts, as MCP prompts, read once per client connection. A command's text is the
 * chat's own expansion of its file; an agent's is one user message, its instructions then the
 * task: a prompt has no system role, and two user messages in a row are merged or refused by
 * some providers. Returns what completes an argument of a prompt (the choices an
 * `argument-hint` lists, such as `[low|high]`).
 */
export async function registerCustomPrompts(
  server: Server,
  session: AgentSession,
): Promise<(name: string) => Completer> {
  const types = await import('@modelcontextprotocol/sdk/types.js')
  const {ErrorCode, McpError} = types
  const custom = (await session.customPrompts?.()) ?? {agents: [], commands: []}
  const served = [...custom.commands.map(commandPrompt), ...custom.agents.map(agentPrompt)]
  const byName = new Map(served.map((entry) => [entry.prompt.name, entry]))

  server.setRequestHandler(types.ListPromptsRequestSchema, async (request) => {
    const {items, nextCursor} = await page(served, request.params?.cursor)
    return {prompts: items.map((entry) => entry.prompt), ...(nextCursor ? {nextCursor} : {})}
  })

  server.setRequestHandler(types.GetPromptRequestSchema, (request): GetPromptResult => {
    const {arguments: args = {}, name} = request.params
    const entry = byName.get(name)
    if (!entry) {
      const names = served.map((s) => s.prompt.name).join(', ') || 'none'
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt "${name}" (the prompts are: ${names})`)
    }

    const declared = entry.prompt.arguments ?? []
    const unknown = Object.keys(args).filter((key) => !declared.some((argument) => argument.name === key))
    if (unknown.length > 0)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Prompt "${name}" has no argument ${unknown.map((key) => `"${key}"`).join(', ')} (its arguments: ${declared.map((a) => a.name).join(', ') || 'none'})`,
      )
    const missing = declared.find((argument) => argument.required && !args[argument.name]?.trim())
    if (missing) throw new McpError(ErrorCode.InvalidParams, `Prompt "${name}" needs the argument "${missing.name}"`)
    return {
      description: entry.prompt.description,
      messages: [{content: {text: entry.text(args), type: 'text'}, role: 'user'}],
    }
  })

  return (name) => async (argument) => completeFrom(byName.get(name)?.choices.get(argument.name) ?? [], argument.value)
}

/**
 * `$ARGUMENTS` is one argument, `arguments`; `$1`...`$9` are positional ones, named by the
 * `argument-hint` (`[pr-number] [priority]`) where it names them, else `arg1`...; each is
 * required when the prompt uses it. A prompt that uses neither takes optional `arguments`, which
 * the chat appends to it.
 */
function commandPrompt(command: CustomCommand): ServedPrompt {
  const hint = hintParts(command.argsHint)
  const {arguments: whole, positions} = command.placeholders
  const words = (text: string) => (text === '' ? [] : text.split(/\s+/))
  const base = {description: command.description, name: command.name}
  if (whole || positions.length === 0) {
    const argument: PromptArgument = {
      description: whole ? (command.argsHint ?? 'What follows the command') : 'Appended to the prompt',
      name: 'arguments',
      required: whole,
    }
    const choices = hint.length === 1 && hint[0].choices ? [hint[0].choices] : []
    return {
      choices: new Map(choices.map((list) => ['arguments', list])),
      prompt: {...base, arguments: [argument]},
      text: (args) => {
        const text = (args.arguments ?? '').trim()
        return command.expand(text, words(text))
      },
    }
  }

  const names: string[] = []
  for (let position = 1; position <= positions.at(-1)!; position++) {
    const named = hint[position - 1]?.name
    names.push(named && !names.includes(named) ? named : `arg${position}`)
  }

  return {
    choices: new Map(names.flatMap((name, i) => (hint[i]?.choices ? [[name, hint[i].choices!] as const] : []))),
    prompt: {
      ...base,
      arguments: names.map((name, i) => ({
        ...(hint[i] ? {description: hint[i].text} : {}),
        name,
        required: positions.includes(i + 1),
      })),
    },
    text: (args) => {
      const argv = names.map((name) => (args[name] ?? '').trim())
      return command.expand(argv.join(' ').trim(), argv)
    },
  }
}

function agentPrompt(agent: CustomAgent): ServedPrompt {
  return {
    choices: new Map(),
    prompt: {
      arguments: [{description: 'What the agent is to do', name: 'task', required: true}],
      description: agent.description,
      name: `${AGENT_PREFIX}${agent.name}`,
    },
    text: (args) => `${agent.instructions}\n\nYour task:\n\n${(args.task ?? '').trim()}`,
  }
}

/**
 * An `argument-hint`'s parts, in order: `[name]`, `<name>` or a bare word; a part listing
 * choices (`[low|medium|high]`, `[priority: low|high]`) offers them to completion.
 */
function hintParts(hint: string | undefined): Array<{text: string; name?: string; choices?: string[]}> {
  return [...(hint ?? '').matchAll(/\[([^\]]*)\]|<([^>]*)>|(\S+)/g)].map((match) => {
    const text = (match[1] ?? match[2] ?? match[3]).trim()
    const labelled = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(text)
    const list = labelled ? labelled[2] : text
    const choices = list.includes('|')
      ? list
          .split('|')
          .map((choice) => choice.trim())
          .filter(Boolean)
      : undefined
    const name = labelled?.[1] ?? (/^[A-Za-z][\w-]*$/.test(text) ? text : undefined)
    return {text, ...(name ? {name} : {}), ...(choices ? {choices} : {})}
  })
}
