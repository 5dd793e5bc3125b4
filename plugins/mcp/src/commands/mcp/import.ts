import {readFile} from 'node:fs/promises'
import {resolve} from 'node:path'
import {isUserError, loadCommandHost, oneLine} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {mcpHost} from '../../command-support.js'
import {readMcpJson} from '../../import-file.js'

export interface McpImportResult {
  file: string
  added: string[]
  skipped: {name: string; reason: string}[]
}

export default class McpImport extends Command {
  static enableJsonFlag = true

  static description = `Import MCP servers from a Claude Code or Cursor style .mcp.json.

The file's "mcpServers" block is read. A project's own .mcp.json needs no import: it is read as project settings once you trust the project. \${VAR} and \${VAR:-default} are copied as written and expanded when the server starts, so secrets kept in the environment stay out of the settings file.

Each server is added as hanzo-dev mcp add would add it; a name that is already configured, or an entry hanzo-dev cannot read, is skipped and said why. Exit 1 when nothing could be imported.`

  static examples = [
    '<%= config.bin %> mcp import',
    '<%= config.bin %> mcp import ~/.cursor/mcp.json',
    '<%= config.bin %> mcp import .mcp.json --tier local',
  ]

  static args = {
    file: Args.string({default: '.mcp.json', description: 'The file to read.'}),
  }

  static flags = {
    tier: Flags.string({
      default: 'user',
      description: 'The settings file to write.',
      options: ['user', 'project', 'local'],
    }),
  }

  async run(): Promise<McpImportResult> {
    const {args, flags} = await this.parse(McpImport)
    const file = resolve(args.file)
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) =>
      this.error(error.code === 'ENOENT' ? `${file} does not exist` : `Cannot read ${file}: ${error.message}`, {
        exit: 1,
      }),
    )
    const host = await loadCommandHost(this)
    let imported: ReturnType<typeof readMcpJson>
    try {
      imported = readMcpJson(text, file, host.env)
    } catch (error) {
      this.error((error as Error).message, {exit: 1})
    }

    // Names only: a value would be the very secret the variable keeps out of the file.
    if (imported.unset.length > 0)
      this.warn(
        `${file} uses ${imported.unset.map((name) => `\${${oneLine(name)}}`).join(', ')}, which ${imported.unset.length === 1 ? 'is' : 'are'} not set and ${imported.unset.length === 1 ? 'has' : 'have'} no default: empty unless set when the server starts`,
      )
    const library = await mcpHost(this)
    const configured = new Set(Object.keys((host.settings.mcp_servers as Record<string, unknown> | undefined) ?? {}))
    const added: string[] = []
    const skipped = [...imported.skipped]
    for (const {entry, name} of imported.servers) {
      if (configured.has(name)) {
        skipped.push({name, reason: 'a server with this name is already configured'})
        continue
      }

      try {
        const result = await library.editSetting({
          cwd: process.cwd(),
          key: `mcp_servers.${name}`,
          tier: flags.tier as 'user' | 'project' | 'local',
          value: JSON.stringify(entry),
        })
        added.push(name)
        // The imported file named the server.
        this.log(`Added MCP server ${oneLine(name)} to ${result.file}`)
      } catch (error) {
        if (!isUserError(error)) throw error
        skipped.push({name, reason: error.message})
      }
    }

    for (const {name, reason} of skipped) this.warn(`Skipped ${name}: ${reason}`)
    if (added.length === 0) process.exitCode = 1
    return {added, file, skipped}
  }
}
