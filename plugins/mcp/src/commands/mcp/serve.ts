import {type AgentSession, failOnUserError, printable, type SessionPermissionMode} from '@hanzo-dev/sdk'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {mcpHost} from '../../command-support.js'
import {DEFAULT_SURFACE, selectTools} from '../../serve/tool-surface.js'

export default class McpServe extends Command {
  static description = `Serve hanzo-dev's tools to another MCP client (Claude Code, Codex, Cursor).

Any MCP client works, an inspector too.

Over stdio by default, or streamable HTTP on 127.0.0.1 with --http PORT (every request needs the bearer token printed at start; a browser Origin other than the server's own must be allowed with --allow-origin). --tools chooses the surface: tool names or groups (fs, exec, git, lsp), in one stable order. Each call goes through hanzo-dev's permission policy first: a denied call (exec of a denied command, a write to a protected path) is refused before anything runs; the rest run with the same hooks, sandbox and audit log as hanzo-dev run, and every answer carries the policy's verdict in _meta["hanzo-dev/verdict"]. The client's own permission prompt is the one the person sees.

Besides the tools it offers the workspace's files as resources, and your custom slash commands (.hanzo/commands, your commands directory) and agents (as agent__NAME) as prompts: a project's only once you trust it (hanzo-dev trust).`

  static examples = [
    'claude mcp add hanzo-dev -- <%= config.bin %> mcp serve --tools fs,exec',
    'codex mcp add hanzo-dev -- <%= config.bin %> mcp serve',
    '<%= config.bin %> mcp serve --http 8765',
  ]

  static flags = {
    'allow-origin': Flags.string({
      description: 'A browser origin allowed to call the HTTP server besides its own (repeatable).',
      multiple: true,
    }),
    http: Flags.integer({
      description: 'Serve streamable HTTP on 127.0.0.1:PORT instead of stdio (0: any free port).',
      max: 65_535,
      min: 0,
    }),
    'permission-mode': Flags.string({
      default: 'allow-all',
      description:
        'What runs without a rule that allows it: allow-all runs what no rule denies (the client asked its user), allow-reads only tools that change nothing.',
      options: ['allow-all', 'allow-reads', 'deny'],
    }),
    tools: Flags.string({
      description: `Tools or groups to serve, comma-separated (default: ${DEFAULT_SURFACE.join(',')}).`,
    }),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(McpServe)
    const library = await mcpHost(this)
    let session: AgentSession
    try {
      session = await library.openAgentSession({
        cliConfig: this.config,
        cwd: process.cwd(),
        env: process.env,
        mcpServers: false,
        model: false,
        permissionMode: flags['permission-mode'] as SessionPermissionMode,
        session: {record: false},
        warn: (m) => process.stderr.write(`Warning: ${printable(m)}\n`),
      })
    } catch (error) {
      return failOnUserError(this, error)
    }

    const entries = flags.tools
      ? flags.tools
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean)
      : DEFAULT_SURFACE
    const tools = selectTools(session.toolSpecs(), entries)
    if (typeof tools === 'string') {
      await session.close()
      this.error(tools, {exit: 2})
    }

    const {createToolServer} = await import('../../serve/tool-server.js')
    const stop = new Promise<void>((resolve) => {
      process.once('SIGINT', resolve)
      process.once('SIGTERM', resolve)
    })
    if (flags.http === undefined) {
      const {StdioServerTransport} = await import('@modelcontextprotocol/sdk/server/stdio.js')
      const server = await createToolServer(session, tools)
      const closed = new Promise<void>((resolve) => {
        server.onclose = resolve
        process.stdin.once('end', resolve)
      })
      await server.connect(new StdioServerTransport())
      await Promise.race([closed, stop])
      await server.close()
    } else {
      const {serveHttp} = await import('../../serve/http-serve.js')
      const served = await serveHttp({
        allowOrigins: flags['allow-origin'] ?? [],
        newServer: () => createToolServer(session, tools),
        port: flags.http,
      }).catch((error: NodeJS.ErrnoException) =>
        this.error(
          error.code === 'EADDRINUSE'
            ? `Port ${flags.http} is in use: pick another, or --http 0 for any free one`
            : error.message,
          {exit: 1},
        ),
      )
      process.stderr.write(
        `hanzo-dev MCP server: ${served.url}\nAuthorization: Bearer ${served.token}\n${tools.length} tools: ${tools.map((t) => t.name).join(', ')}\n`,
      )
      await stop
      await served.close()
    }

    await session.close()
  }
}
