import {loadCommandHost, makePaint, oneLine} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {agentFlags} from '../agent-command.js'
import {
  type AgentDefinition,
  agentDirs,
  AgentFileError,
  loadAgents,
  type LoadedAgents,
} from '@hanzo-dev/sdk/agent-files'
import {agentHost} from '../host.js'
import {runOneStage} from '../run-stage-command.js'
import {runAgent} from '../stages.js'

export interface AgentList {
  agents: Array<
    Pick<AgentDefinition, 'name' | 'description' | 'model' | 'source' | 'file'> & {
      tools: AgentDefinition['tools']
      permission_mode?: string
    }
  >
  /** The project's agent files left out until you run `hanzo-dev trust`. */
  untrusted: string[]
}

export default class Agent extends Command {
  static enableJsonFlag = true

  static description = `Run one of your own agents, or list them.

An agent is a Markdown file: front matter between two \`---\` lines, then the system prompt. The fields: name (default: the file name without .md), description (required), tools (all, read-only (the default), none, or a list such as [fs_read, fs_grep]), model, permission_mode (prompt, allow-reads, deny or allow-all).

Front matter is one \`key: value\` per line (a value plain or quoted, or a [a, b] list; # comments). Agents come from $XDG_CONFIG_HOME/hanzo/agents/*.md and, once you trust the project (hanzo-dev trust), from .hanzo/agents/*.md, which wins over a user agent of the same name. The flags override the file. A malformed file is an error naming it and the field.`

  static examples = [
    '<%= config.bin %> agent --list',
    '<%= config.bin %> agent reviewer "review the last commit"',
    'git diff | <%= config.bin %> agent reviewer "review this change" --output-format json',
  ]

  static args = {
    name: Args.string({description: 'The agent (agent --list shows them).'}),
    task: Args.string({description: 'The task; - reads it from stdin.'}),
  }

  static flags = {
    ...agentFlags,
    list: Flags.boolean({char: 'l', description: 'List the agents (with --json, as JSON).'}),
  }

  async run(): Promise<AgentList | void> {
    const {args, flags} = await this.parse(Agent)
    const loaded = await this.agents()
    if (flags.list) {
      const list = agentList(loaded)
      if (!this.jsonEnabled()) this.log(renderList(list))
      return list
    }

    if (!args.name || !args.task)
      this.error('Name an agent and a task: hanzo-dev agent NAME TASK', {
        exit: 2,
        suggestions: ['hanzo-dev agent --list shows the agents'],
      })
    const agent = loaded.agents.find((a) => a.name === args.name)
    if (!agent) {
      const known = loaded.agents.map((a) => a.name).join(', ') || 'none'
      const untrusted =
        loaded.untrusted.length > 0 ? '; the project has agents that load once you run hanzo-dev trust' : ''
      this.error(`No agent named ${JSON.stringify(args.name)} (agents: ${known}${untrusted})`, {
        exit: 2,
        suggestions: ['hanzo-dev agent --list shows where agents come from'],
      })
    }

    const {code} = await runOneStage(
      this,
      args.task,
      flags,
      ({output, session, task}) => runAgent(session, agent, task, {maxTurns: flags['max-turns'], observer: output}),
      {
        model: agent.model,
        permissionMode: agent.permissionMode,
        tools: agent.tools,
      },
    )
    if (code !== 0) this.exit(code)
  }

  private async agents(): Promise<LoadedAgents> {
    const host = await loadCommandHost(this)
    // Project agent files load only once the user trusts the project, as its hooks and MCP servers do.
    const trusted = await (await agentHost(this)).isTrusted(host.projectRoot, host.env)
    try {
      return await loadAgents(agentDirs(host.projectRoot, host.configDir, trusted))
    } catch (error) {
      if (error instanceof AgentFileError)
        this.error(`Invalid agent file ${error.message}`, {
          exit: 1,
          suggestions: ['hanzo-dev agent --help shows the format'],
        })
      throw error
    }
  }
}

function agentList(loaded: LoadedAgents): AgentList {
  return {
    agents: loaded.agents.map((a) => ({
      description: a.description,
      file: a.file,
      name: a.name,
      source: a.source,
      tools: a.tools,
      ...(a.model ? {model: a.model} : {}),
      ...(a.permissionMode ? {permission_mode: a.permissionMode} : {}),
    })),
    untrusted: loaded.untrusted,
  }
}

/** The agent files wrote the names, descriptions and tools (a cloned project's too): shown through the printer. */
function renderList(list: AgentList): string {
  const paint = makePaint()
  const shown = (text: string) => oneLine(text, Number.POSITIVE_INFINITY)
  const lines = list.agents.map((a) => {
    const tools = typeof a.tools === 'string' ? a.tools : a.tools.join(', ')
    return `${shown(a.name).padEnd(20)} ${shown(a.description)} ${paint.dim(`(${a.source}; tools: ${shown(tools)})`)}`
  })
  if (lines.length === 0)
    lines.push('No agents. Add one as $XDG_CONFIG_HOME/hanzo/agents/NAME.md (hanzo-dev agent --help shows the format).')
  if (list.untrusted.length > 0)
    lines.push(
      paint.dim(
        `not trusted: ${list.untrusted.length} project agent file(s) in .hanzo/agents load once you run hanzo-dev trust`,
      ),
    )
  return lines.join('\n')
}
