import {openAgentSession} from '../adapters/agent-session/index.js'
import {HanzoCommand} from '../cli/base-command.js'
import {toolsFlag} from '../cli/tools-flag.js'
import {parseToolScope} from '../core/tools/scope.js'
import {renderToolSurface, type ToolSurface, toolSurface} from '../core/tools/surface.js'

export default class Tools extends HanzoCommand {
  static description = `List the tools a session started here would offer the model, and what they cost.

In the order the model sees them, the same on every start: the built-in tools, then the plugins' tools by plugin and name. Each with who provides it, whether it changes anything (a plugin's tool always counts as changing), and its schema's size in estimated tokens (name, description and JSON schema as sent). Then the system prompt's tokens and the total sent with every request before the conversation. --tools or the tools.enabled setting choose a subset, as for run and chat. MCP servers are not started: their tools (mcp__<server>__<tool>) are added once a session's servers are up.`

  static examples = [
    '<%= config.bin %> tools',
    '<%= config.bin %> tools --tools fs,exec',
    "<%= config.bin %> tools --json | jq '.tools[] | {name, tokens}'",
  ]

  static flags = {
    tools: toolsFlag,
  }

  async run(): Promise<ToolSurface> {
    const {flags} = await this.parse(Tools)
    const loaded = await this.settings()
    // Tools only: no model, so no credential is needed, and nothing is saved.
    const session = await openAgentSession({
      cliConfig: this.config,
      cwd: process.cwd(),
      env: process.env,
      mcpServers: false,
      model: false,
      // Nothing is called: no one is asked.
      permissionMode: 'deny',
      session: {record: false},
      settings: loaded,
      surfaceOnly: true,
      ...(flags.tools === undefined ? {} : {tools: parseToolScope(flags.tools)}),
      warn: (message) => void this.warn(message),
    })
    try {
      const surface = toolSurface(session)
      if (!flags.json) this.log(renderToolSurface(surface))
      return surface
    } finally {
      await session.close()
    }
  }
}
