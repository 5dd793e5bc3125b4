import {isRecord, printable} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {commandServers, withSpinner} from '../../command-support.js'

export interface McpCallResult {
  tool: string
  is_error: boolean
  output: string
}

export default class McpCall extends Command {
  static enableJsonFlag = true

  static description = `Call one MCP tool yourself and print what it returns.

TOOL is the name the agent sees (mcp__<server>__<tool>; hanzo-dev mcp tools lists them). Only that tool's server is started. You run it, so no permission prompt is asked. Exit 1 when the tool reports an error, 2 for a TOOL or input that is not valid.`

  static examples = [
    `<%= config.bin %> mcp call mcp__everything__echo --input '{"message":"hi"}'`,
    `<%= config.bin %> mcp call mcp__fs__list_directory --input '{"path":"."}' --json`,
  ]

  static args = {
    tool: Args.string({description: 'The tool: mcp__<server>__<tool>.', required: true}),
  }

  static flags = {
    input: Flags.string({default: '{}', description: 'The arguments, as a JSON object.'}),
  }

  async run(): Promise<McpCallResult> {
    const {args, flags} = await this.parse(McpCall)
    let input: unknown
    try {
      input = JSON.parse(flags.input)
    } catch (error) {
      this.error(`--input is not JSON: ${(error as Error).message}`, {exit: 2})
    }

    if (!isRecord(input)) this.error('--input must be a JSON object: {"name": value, ...}', {exit: 2})
    const {entries, host, library, open} = await commandServers(this)
    const parts = library.parseMcpToolName(args.tool)
    const entry = parts && entries.find((s) => safeServerPart(library, s.name) === parts.server)
    if (!parts || !entry) {
      const names = entries.map((s) => s.name).join(', ') || 'none'
      this.error(`${args.tool} is not a tool of an enabled MCP server (the servers are: ${names})`, {
        exit: 2,
        suggestions: ['hanzo-dev mcp tools lists the tool names'],
      })
    }

    const servers = await open([entry])
    const connection = entry
    try {
      const result = await withSpinner(library, `Calling ${args.tool}…`, async () => {
        await servers.start()
        const tool = servers.tools().find((t) => t.name === args.tool)
        if (!tool) {
          const failure = servers.status()[0]
          if (failure?.error)
            this.error(failure.error, {exit: 1, suggestions: failure.hint ? [failure.hint] : undefined})
          this.error(`MCP server "${connection.name}" has no tool ${args.tool}`, {
            exit: 2,
            suggestions: [`hanzo-dev mcp tools ${connection.name} lists its tools`],
          })
        }

        return tool.execute(input, {cwd: host.cwd, sessionId: 'mcp-call', signal: new AbortController().signal})
      })
      if (!flags.json) {
        // The server's result: through the printer (--json gives it as it came).
        if (result.is_error) this.logToStderr(printable(result.error ?? result.output))
        else this.log(printable(result.output))
      }

      if (result.is_error) process.exitCode = 1
      return {
        is_error: result.is_error,
        output: result.is_error ? (result.error ?? result.output) : result.output,
        tool: args.tool,
      }
    } finally {
      await servers.close()
    }
  }
}

function safeServerPart(
  library: {
    normalizeMcpToolName(server: string, tool: string): string
    parseMcpToolName(name: string): {server: string} | undefined
  },
  server: string,
): string | undefined {
  try {
    return library.parseMcpToolName(library.normalizeMcpToolName(server, 'x'))?.server
  } catch {
    return undefined
  }
}
