import {failOnUserError, loadCommandHost} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {mcpHost} from '../../command-support.js'

export interface McpRemoveResult {
  name: string
  /** The settings files it was removed from. */
  files: string[]
}

type Tier = 'user' | 'project' | 'local'

export default class McpRemove extends Command {
  static enableJsonFlag = true

  static description = `Remove an MCP server from your settings.

Without --tier it is removed from every settings file that sets it (the user, project and local ones); with --tier, from that one only. A server set by an environment variable is not in a file: unset the variable.`

  static examples = ['<%= config.bin %> mcp remove everything', '<%= config.bin %> mcp remove tools --tier project']

  static args = {
    name: Args.string({description: 'The server name, as hanzo-dev mcp list shows it.', required: true}),
  }

  static flags = {
    tier: Flags.string({description: 'Only this settings file.', options: ['user', 'project', 'local']}),
  }

  async run(): Promise<McpRemoveResult> {
    const {args, flags} = await this.parse(McpRemove)
    // Settings are read first: a malformed file is reported as every command reports it.
    await loadCommandHost(this)
    const library = await mcpHost(this)
    const files: string[] = []
    for (const tier of flags.tier ? [flags.tier as Tier] : (['user', 'project', 'local'] as const)) {
      const result = await library
        .editSetting({cwd: process.cwd(), key: `mcp_servers.${args.name}`, tier})
        .catch((error: unknown) => {
          if (error instanceof Error && / is not set in /.test(error.message)) return undefined
          return failOnUserError(this, error)
        })
      if (!result) continue
      files.push(result.file)
      this.log(`Removed MCP server ${args.name} from ${result.file}`)
    }

    if (files.length === 0) {
      const where = flags.tier ? ` in the ${flags.tier} settings` : ' in the settings files'
      this.error(`No MCP server named ${args.name}${where}`, {
        exit: 1,
        suggestions: ['hanzo-dev mcp list --offline shows the configured servers and their tiers'],
      })
    }

    return {files, name: args.name}
  }
}
