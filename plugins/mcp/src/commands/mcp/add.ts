import {failOnUserError, loadCommandHost} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {mcpHost} from '../../command-support.js'
import {parsePairs, type SettingsServer} from '../../server-entry.js'

export interface McpAddResult {
  name: string
  file: string
  tier: string
  transport: 'stdio' | 'http'
}

export default class McpAdd extends Command {
  static enableJsonFlag = true
  static strict = false

  static description = `Add an MCP server: a command to run after --, or a --url.

A command runs as a stdio server; a URL is spoken to over streamable HTTP, or HTTP+SSE for older servers.

The server's tools reach the agent as mcp__<NAME>__<tool>. A project's servers start only in a project you trust; one you add here yourself keeps a trusted project trusted. --env and --header values (tokens) may only go in the user tier. Check it with hanzo-dev mcp list.`

  static examples = [
    '<%= config.bin %> mcp add everything -- npx -y @modelcontextprotocol/server-everything',
    '<%= config.bin %> mcp add fs --env LOG_LEVEL=debug -- npx -y @modelcontextprotocol/server-filesystem .',
    '<%= config.bin %> mcp add docs --url https://mcp.example.com/mcp --header "Authorization: Bearer $TOKEN"',
    '<%= config.bin %> mcp add tools --tier project -- node tools/mcp-server.js',
  ]

  static args = {
    name: Args.string({description: 'The server name: letters, digits, "_" and "-".', required: true}),
  }

  static flags = {
    env: Flags.string({
      description: 'An environment variable of the server process (NAME=VALUE; repeatable).',
      multiple: true,
    }),
    header: Flags.string({
      description: 'An HTTP header sent with every request (Name: value; repeatable).',
      multiple: true,
    }),
    tier: Flags.string({
      default: 'user',
      description: 'The settings file to write.',
      options: ['user', 'project', 'local'],
    }),
    url: Flags.string({description: 'The URL of an HTTP server.'}),
  }

  async run(): Promise<McpAddResult> {
    const {argv, flags} = await this.parse(McpAdd)
    const [name, ...command] = argv as string[]
    const library = await mcpHost(this)
    try {
      library.normalizeMcpToolName(name, 'tool')
    } catch (error) {
      this.error((error as Error).message, {exit: 2})
    }

    if (name.includes('.')) this.error(`MCP server name ${JSON.stringify(name)} cannot contain "."`, {exit: 2})
    const entry = this.entry(command, flags)
    const host = await loadCommandHost(this)
    const existing = host.settings.mcp_servers as Record<string, unknown> | undefined
    if (existing && name in existing) {
      this.error(`An MCP server named ${name} is already configured`, {
        exit: 1,
        suggestions: [`hanzo-dev mcp remove ${name} first, or pick another name`],
      })
    }

    const tier = flags.tier as 'user' | 'project' | 'local'
    try {
      const result = await library.editSetting({
        cwd: process.cwd(),
        key: `mcp_servers.${name}`,
        tier,
        value: JSON.stringify(entry),
      })
      for (const warning of result.warnings) this.warn(warning)
      this.log(`Added MCP server ${name} to ${result.file}`)
      if (result.gitignore) this.log(`Added .hanzo/settings.local.json to ${result.gitignore}`)
      return {file: result.file, name, tier, transport: entry.url ? 'http' : 'stdio'}
    } catch (error) {
      return failOnUserError(this, error)
    }
  }

  private entry(command: string[], flags: {env?: string[]; header?: string[]; url?: string}): SettingsServer {
    if (flags.url !== undefined) {
      if (command.length > 0) this.error('Give either --url or a command after --, not both', {exit: 2})
      if (flags.env) this.error('--env is for a command the server runs as; an HTTP server takes --header', {exit: 2})
      let url: URL
      try {
        url = new URL(flags.url)
      } catch {
        this.error(`--url ${JSON.stringify(flags.url)} is not a URL`, {exit: 2})
      }

      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        this.error('--url must be an http:// or https:// URL', {exit: 2})
      const headers = parsePairs(flags.header ?? [], ':', '--header')
      if (typeof headers === 'string') this.error(headers, {exit: 2})
      return {url: url.href, ...(Object.keys(headers).length > 0 ? {headers} : {})}
    }

    if (command.length === 0)
      this.error('Give the command that starts the server after --, or --url URL', {
        exit: 2,
        suggestions: ['hanzo-dev mcp add everything -- npx -y @modelcontextprotocol/server-everything'],
      })
    if (flags.header) this.error('--header is for an HTTP server (--url); a command takes --env', {exit: 2})
    const env = parsePairs(flags.env ?? [], '=', '--env')
    if (typeof env === 'string') this.error(env, {exit: 2})
    const [program, ...args] = command
    return {command: program, ...(args.length > 0 ? {args} : {}), ...(Object.keys(env).length > 0 ? {env} : {})}
  }
}
