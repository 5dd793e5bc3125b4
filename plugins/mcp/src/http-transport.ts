import type {OAuthClientProvider} from '@modelcontextprotocol/sdk/client/auth.js'
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js'

import {insufficientScope, InsufficientScopeError} from './scope-step-up.js'

export interface HttpTransportChoice {
  transport: Transport
  kind: 'streamable-http' | 'sse'
  /** Whether a failure of this transport means "try the next one" rather than "the server is down". */
  fallbackOn(error: unknown): boolean
}

/**
 * HIP-301 HttpMcpTransport: streamable HTTP first; a server that refuses it with a 4xx (an
 * older server that only speaks HTTP+SSE answers POST with 404 or 405) is tried over SSE, as
 * the MCP spec's backwards-compatibility section says. A 401 is not a fallback: it means log in.
 * `bearer` adds the `mcp login` token to every request (not the SDK's authProvider, which would
 * start a browser login in the middle of a session: logins happen in `mcp login` only).
 * `authProvider` is for runs without a person: the SDK's OAuth, authorized headlessly
 * (headless-auth.ts) or by the client credentials grant.
 */
export async function httpTransports(
  url: URL,
  headers: Record<string, string> | undefined,
  bearer?: () => Promise<string | undefined>,
  authProvider?: OAuthClientProvider,
): Promise<HttpTransportChoice[]> {
  const [{StreamableHTTPClientTransport}, {SSEClientTransport}, {finishingAuthorization, HeadlessOAuthProvider}] =
    await Promise.all([
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/client/sse.js'),
      import('./headless-auth.js'),
    ])
  const requestInit = headers ? {headers} : undefined
  const withBearer: typeof fetch = async (input, init) => {
    const token = await bearer?.()
    if (!token) return fetch(input, init)
    const sent = new Headers(init?.headers)
    sent.set('authorization', `Bearer ${token}`)
    const response = await fetch(input, {...init, headers: sent})
    const scopes = await insufficientScope(response)
    if (scopes) throw new InsufficientScopeError(scopes)
    return response
  }
  const streamable = new StreamableHTTPClientTransport(url, {authProvider, fetch: withBearer, requestInit})
  return [
    {
      fallbackOn: (error) => {
        const code = (error as {code?: unknown} | undefined)?.code
        return typeof code === 'number' && code >= 400 && code < 500 && code !== 401 && code !== 403
      },
      kind: 'streamable-http',
      transport:
        authProvider instanceof HeadlessOAuthProvider ? finishingAuthorization(streamable, authProvider) : streamable,
    },
    {
      fallbackOn: () => false,
      kind: 'sse',
      transport: new SSEClientTransport(url, {
        authProvider,
        fetch: withBearer,
        requestInit,
      }),
    },
  ]
}
