import {makePaint, oneLine} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {commandServers, withSpinner} from '../../command-support.js'

export interface ListedTool {
  /** The name the model calls it by: mcp__<server>__<tool>. */
  name: string
  server: string
  description: string
  /** false only when the server marks it read-only and the settings trust that (trust_read_only_hint). */
  mutating: boolean
  inputSchema: Record<string, unknown>
}

export interface McpToolsResult {
  tools: ListedTool[]
  /** The servers that failed to start, with why. */
  failed: {server: string; error: string; hint?: string}[]
  /** With --approve: the server's tools whose definitions are now approved. */
  approved?: string[]
}

export default class McpTools extends Command {
  static enableJsonFlag = true

  static description = `List the tools of the enabled MCP servers, or of one, as the agent sees them.

Names are the ones the model calls (mcp__<server>__<tool>) and that permission rules match. A tool counts as mutating unless its server marks it read-only and mcp_servers.<name>.trust_read_only_hint is true. Exit 1 when a server named (or every server) failed to start.

A tool whose description or input schema changed since it last ran is asked about again, whatever the rules allow; --approve (with SERVER) approves the server's tools as listed, after you have read them.`

  static examples = [
    '<%= config.bin %> mcp tools',
    '<%= config.bin %> mcp tools everything',
    '<%= config.bin %> mcp tools --json | jq -r ".tools[].name"',
    '<%= config.bin %> mcp tools everything --approve',
  ]

  static args = {
    server: Args.string({description: 'Only this server.'}),
  }

  static flags = {
    approve: Flags.boolean({
      description: "Approve the server's tools as they are now, changed ones included (needs SERVER).",
    }),
  }

  async run(): Promise<McpToolsResult> {
    const {args, flags} = await this.parse(McpTools)
    if (flags.approve && !args.server) this.error('--approve needs the SERVER whose tools you approve', {exit: 2})
    const {entries, library, open} = await commandServers(this, args.server ? [args.server] : undefined, {quiet: true})
    if (entries.length === 0) {
      if (!flags.json) this.log('No MCP servers enabled (hanzo-dev mcp add NAME -- COMMAND adds one).')
      return {failed: [], tools: []}
    }

    const servers = await open(entries)
    let result: McpToolsResult
    try {
      result = await withSpinner(library, 'Starting MCP servers…', async () => {
        await servers.start()
        const tools = servers.connections.flatMap((connection) =>
          servers.toolsFrom(connection.name).map((tool) => ({...tool, server: connection.name})),
        )
        const failed = servers
          .status()
          .flatMap((s) => (s.error ? [{error: s.error, server: s.name, ...(s.hint ? {hint: s.hint} : {})}] : []))
        if (!flags.approve || failed.length > 0) return {failed, tools}
        return {approved: await servers.approve(args.server!), failed, tools}
      })
    } finally {
      await servers.close()
    }

    if (!flags.json) this.log(render(result))
    if (!flags.json && result.approved)
      this.log(
        `Approved ${result.approved.length} tool${result.approved.length === 1 ? '' : 's'} of ${oneLine(args.server!)}.`,
      )
    if (result.failed.length > 0 && (result.tools.length === 0 || flags.approve)) process.exitCode = 1
    return result
  }
}

/** The servers wrote the names, descriptions and errors: shown through the printer. */
function render({failed, tools}: McpToolsResult): string {
  const paint = makePaint()
  const shown = (text: string) => oneLine(text, Number.POSITIVE_INFINITY)
  const lines = tools.map(
    (t) =>
      `${paint.bold(shown(t.name))}${t.mutating ? '' : paint.dim('  (read-only)')}\n  ${oneLine(t.description.split('\n', 1)[0], 160)}`,
  )
  if (tools.length === 0 && failed.length === 0) lines.push('The servers offer no tools.')
  for (const f of failed) lines.push(paint.red(shown(f.error)) + (f.hint ? paint.dim(` (${shown(f.hint)})`) : ''))
  return lines.join('\n')
}
