import {failOnUserError, loadCommandHost, oneLine} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {mcpHost, withSpinner} from '../../command-support.js'
import {discoverAuthorization, LoginDiscoveryError, loginKey} from '../../oauth-login.js'
import {enabledServers} from '../../server-config.js'

export interface McpLoginResult {
  name: string
  issuer: string
  resource: string
  account?: string
  expires?: string
  storedIn: string
}

export default class McpLogin extends Command {
  static enableJsonFlag = true

  static description = `Log in to an HTTP MCP server that asks for OAuth.

Asks the server what authorization server it trusts (its RFC 9728 metadata), registers hanzo-dev there when mcp_servers.NAME.oauth.client_id is not set, and logs in in your browser (PKCE), or with --device from another device, or with --no-browser by pasting back the URL the browser ends on. The token is kept in the credential store for this server only, sent only to its URL, and renewed when it expires.`

  static examples = [
    '<%= config.bin %> mcp login linear',
    '<%= config.bin %> mcp login linear --device',
    '<%= config.bin %> mcp login linear --no-browser',
    '<%= config.bin %> mcp login linear --scope "issues:write"',
  ]

  static args = {
    name: Args.string({description: 'The server name, as hanzo-dev mcp list shows it.', required: true}),
  }

  static flags = {
    device: Flags.boolean({
      description: 'Log in with a code entered on another device (RFC 8628).',
      exclusive: ['no-browser'],
    }),
    'no-browser': Flags.boolean({
      description: 'Print the login URL instead of opening a browser, and read the redirect URL or code from stdin.',
    }),
    scope: Flags.string({
      description:
        'More scopes to ask for, space-separated, besides the ones the server names (what a server that needs more access says to ask for).',
      multiple: true,
    }),
  }

  async run(): Promise<McpLoginResult> {
    const {args, flags} = await this.parse(McpLogin)
    const host = await loadCommandHost(this)
    const library = await mcpHost(this)
    const server = enabledServers(host.settings.mcp_servers, host.env).servers.find((s) => s.name === args.name)
    if (!server)
      this.error(`No enabled MCP server named ${args.name}`, {
        exit: 2,
        suggestions: ['hanzo-dev mcp list --offline shows the configured servers'],
      })
    const {transport} = server
    if (transport.type !== 'http')
      this.error(`MCP server ${args.name} is a local command (stdio): logins are for HTTP servers`, {
        exit: 2,
        suggestions: [`pass its credentials in mcp_servers.${args.name}.env`],
      })

    if (server.oauth?.grant === 'client_credentials')
      this.error(`MCP server ${args.name} needs no login: it gets its tokens with its client's secret`, {
        exit: 2,
        suggestions: [
          `mcp_servers.${args.name}.oauth.grant is client_credentials; hanzo-dev mcp tools ${args.name} uses it`,
        ],
      })

    const found = await withSpinner(library, `Asking ${transport.url.origin} how to log in`, () =>
      discoverAuthorization({...server, transport}),
    ).catch((error: unknown) => {
      if (error instanceof LoginDiscoveryError) this.error(error.message, {exit: 1, suggestions: [error.hint]})
      throw error
    })
    const login = {
      clientId: server.oauth?.clientId,
      clientSecret: server.oauth?.clientSecret,
      ...(found.defaultEndpoints ? {defaultEndpoints: true} : {}),
      env: host.env,
      issuer: found.issuer,
      key: loginKey(args.name),
      resource: found.resource,
      scopes: [...new Set([...found.scopes, ...(flags.scope ?? []).flatMap((s) => s.split(' ').filter(Boolean))])],
      settings: host.settings,
    }
    const stored = await library
      .loginToResource(login, {browser: !flags['no-browser'], device: flags.device})
      .catch((error: unknown) => failOnUserError(this, error))
    this.log(
      `Logged in to MCP server ${args.name}${stored.account ? ` as ${oneLine(stored.account)}` : ''}${stored.expires ? ` (token expires ${stored.expires})` : ''}; stored in ${stored.storedIn}`,
    )
    return {issuer: found.issuer, name: args.name, resource: found.resource, ...stored}
  }
}
