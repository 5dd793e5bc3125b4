import {failOnUserError, loadCommandHost} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'

import {mcpHost} from '../../command-support.js'
import {loginKey} from '../../oauth-login.js'
import {parseMcpServers} from '../../server-config.js'

export interface McpLogoutResult {
  name: string
  removed: boolean
  /** Whether the authorization server revoked the grant: revoked, unsupported, failed. */
  revocation?: string
}

export default class McpLogout extends Command {
  static enableJsonFlag = true

  static description = `Forget the OAuth login of an MCP server.

Revokes the grant at the authorization server when it offers revocation (best effort: logging out works offline too) and deletes the token from the credential store.`

  static examples = ['<%= config.bin %> mcp logout linear']

  static args = {
    name: Args.string({description: 'The server name given to hanzo-dev mcp login.', required: true}),
  }

  async run(): Promise<McpLogoutResult> {
    const {args} = await this.parse(McpLogout)
    const host = await loadCommandHost(this)
    const library = await mcpHost(this)
    // A server removed from the settings can still be logged out of: its secret is only looked up.
    const entry = parseMcpServers(host.settings.mcp_servers).servers.find((s) => s.name === args.name)
    const clientSecret = entry && 'server' in entry ? entry.server.oauth?.clientSecret : undefined
    const result = await library
      .logoutResource({clientSecret, env: host.env, key: loginKey(args.name), settings: host.settings})
      .catch((error: unknown) => failOnUserError(this, error))
    if (!result.removed)
      this.error(`Not logged in to MCP server ${args.name}`, {
        exit: 1,
        suggestions: [`hanzo-dev mcp login ${args.name}`],
      })
    const revoked = result.revocation === 'failed' ? ' (the server could not be told to revoke it)' : ''
    this.log(`Logged out of MCP server ${args.name}${revoked}`)
    return {name: args.name, ...result}
  }
}
