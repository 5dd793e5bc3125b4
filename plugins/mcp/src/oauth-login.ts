import type {McpServerEntry} from './server-config.js'

/** The credential-store key of a server's login: apart from the model providers' names. */
export function loginKey(server: string): string {
  return `mcp:${server}`
}

/** What MCP's authorization spec lets a client learn before it logs in. */
export interface ServerAuthorization {
  /** The protected resource (RFC 9728 `resource`), sent as RFC 8707's `resource`. */
  resource: string
  /** The first authorization server the metadata names. */
  issuer: string
  /** The scopes to ask for: the settings', else the 401's challenge, else what the metadata lists. */
  scopes: string[]
  /** A server on MCP's 2025-03-26 authorization: its origin is the authorization server (ResourceLogin's field). */
  defaultEndpoints?: boolean
}

export class LoginDiscoveryError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message)
  }
}

type HttpServer = McpServerEntry & {transport: {type: 'http'}}

/**
 * Asks the server without a token. A 401 carries `WWW-Authenticate: Bearer resource_metadata=...`
 * (or the metadata sits at the well-known path): its RFC 9728 document names the authorization
 * server. The resource must be this server's URL or a prefix of it, or a server could get a token
 * meant for another.
 */
export async function discoverAuthorization(server: HttpServer, signal?: AbortSignal): Promise<ServerAuthorization> {
  const {discoverOAuthProtectedResourceMetadata, extractWWWAuthenticateParams} =
    await import('@modelcontextprotocol/sdk/client/auth.js')
  const {url} = server.transport
  const probe = await fetch(url, {
    body: JSON.stringify({
      id: 0,
      jsonrpc: '2.0',
      method: 'initialize',
      params: {capabilities: {}, clientInfo: {name: 'hanzo-dev', version: '0'}, protocolVersion: '2025-06-18'},
    }),
    headers: {
      ...server.transport.headers,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    },
    method: 'POST',
    signal,
  }).catch((error: unknown) => {
    const cause = (error as {cause?: {code?: string}}).cause?.code
    throw new LoginDiscoveryError(
      `Cannot reach MCP server "${server.name}" at ${url.origin}${cause ? ` (${cause})` : ''}`,
      `check that it is up and that mcp_servers.${server.name}.url is right`,
    )
  })
  await probe.body?.cancel()
  const challenge = probe.status === 401 ? extractWWWAuthenticateParams(probe) : {}
  const metadata = await discoverOAuthProtectedResourceMetadata(url, {
    resourceMetadataUrl: challenge.resourceMetadataUrl,
  }).catch(() => undefined)
  const scopes = (supported?: string[]) =>
    server.oauth?.scopes ?? challenge.scope?.split(' ').filter(Boolean) ?? supported ?? []
  // MCP's 2025-03-26 authorization had no RFC 9728 metadata: the server's origin authorizes.
  if (!metadata?.authorization_servers?.length && probe.status === 401)
    return {defaultEndpoints: true, issuer: url.origin, resource: url.href, scopes: scopes()}
  if (!metadata?.authorization_servers?.length) {
    throw new LoginDiscoveryError(
      `MCP server "${server.name}" did not ask for a login (it answered HTTP ${probe.status})`,
      'its tools work without one: hanzo-dev mcp tools ' + server.name,
    )
  }

  const resource = metadata.resource ?? url.href
  if (!covers(resource, url)) {
    throw new LoginDiscoveryError(
      `MCP server "${server.name}" names ${resource} as its resource, which is not its own URL ${url.href}`,
      'the server is misconfigured or not the one you meant; no login was started',
    )
  }

  return {issuer: metadata.authorization_servers[0], resource, scopes: scopes(metadata.scopes_supported)}
}

/** RFC 8707 / MCP: a resource covers the URLs on its origin under its path. */
export function covers(resource: string, url: URL): boolean {
  let base: URL
  try {
    base = new URL(resource)
  } catch {
    return false
  }

  const path = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`
  return base.origin === url.origin && (url.pathname === base.pathname || `${url.pathname}/`.startsWith(path))
}
