import type {OAuthClientProvider} from '@modelcontextprotocol/sdk/client/auth.js'
import type {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js'
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js'

import type {McpServerEntry} from './server-config.js'

/** The redirect URI a registered hanzo-dev client names (the same as `mcp login`'s). */
const REDIRECT_URL = 'http://127.0.0.1/callback'

/**
 * An OAuth client for the SDK's `auth()` that needs no browser: it follows the authorization
 * redirect with fetch, which works with servers that approve at once (the conformance suite's,
 * a machine-to-machine gateway), and keeps what it gets in memory for the process's life. The
 * SDK does the rest: discovery with its 2025-03-26 fallbacks, registration, the token endpoint's
 * client authentication method, refresh, and the scope step-up on `403 insufficient_scope`.
 */
export class HeadlessOAuthProvider implements OAuthClientProvider {
  readonly redirectUrl = REDIRECT_URL
  private client?: OAuthClientInformationMixed
  private saved?: OAuthTokens
  private verifier?: string
  private code?: string

  constructor(preRegistered?: {clientId: string; clientSecret?: string}) {
    if (preRegistered)
      this.client = {
        client_id: preRegistered.clientId,
        ...(preRegistered.clientSecret ? {client_secret: preRegistered.clientSecret} : {}),
      }
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'hanzo-dev',
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: [REDIRECT_URL],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.client = client
  }

  tokens(): OAuthTokens | undefined {
    return this.saved
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no authorization was started')
    return this.verifier
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    const answer = await fetch(url, {redirect: 'manual'})
    await answer.body?.cancel()
    const location = answer.headers.get('location')
    const code = location ? new URL(location, url).searchParams.get('code') : null
    if (!code)
      throw new Error(
        `${url.origin} did not approve the authorization without a browser (HTTP ${answer.status}): run hanzo-dev mcp login`,
      )
    this.code = code
  }

  /** The code a redirect just brought, once: the transport trades it for tokens before it retries. */
  takeCode(): string | undefined {
    const {code} = this
    this.code = undefined
    return code
  }
}

/**
 * The SDK's transport answers an authorization that needs a redirect with `UnauthorizedError`,
 * leaving the code's exchange and the retry to the app: here they happen at once, with the code
 * the headless provider brought back. A second refusal is the server's last word.
 */
export function finishingAuthorization(
  transport: StreamableHTTPClientTransport,
  provider: HeadlessOAuthProvider,
): StreamableHTTPClientTransport {
  const send = transport.send.bind(transport)
  transport.send = async (message: JSONRPCMessage, options) => {
    try {
      await send(message, options)
    } catch (error) {
      const code = provider.takeCode()
      if (!code) throw error
      await transport.finishAuth(code)
      await send(message, options)
    }
  }

  return transport
}

/**
 * The OAuth of a machine-to-machine server (`oauth.grant: client_credentials`): the SDK's
 * client credentials grant with the configured client, tokens in memory, got again when they
 * expire. Other servers have none: their tokens come from `mcp login`.
 */
export async function machineAuthProvider(server: McpServerEntry): Promise<OAuthClientProvider | undefined> {
  const oauth = server.oauth
  if (oauth?.grant !== 'client_credentials' || !oauth.clientId || !oauth.clientSecret) return undefined
  const {ClientCredentialsProvider} = await import('@modelcontextprotocol/sdk/client/auth-extensions.js')
  return new ClientCredentialsProvider({
    clientId: oauth.clientId,
    clientName: 'hanzo-dev',
    clientSecret: oauth.clientSecret,
    ...(oauth.scopes?.length ? {scope: oauth.scopes.join(' ')} : {}),
  })
}
