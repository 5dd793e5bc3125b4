import type {OAuthClientProvider} from '@modelcontextprotocol/sdk/client/auth.js'
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js'

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
 */
export async function httpTransports(url: URL, headers: Record<string, string> | undefined, authProvider?: OAuthClientProvider): Promise<HttpTransportChoice[]> {
  const [{StreamableHTTPClientTransport}, {SSEClientTransport}] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
  ])
  const requestInit = headers ? {headers} : undefined
  return [
    {
      fallbackOn: (error) => {
        const code = (error as {code?: unknown} | undefined)?.code
        return typeof code === 'number' && code >= 400 && code < 500 && code !== 401 && code !== 403
      },
      kind: 'streamable-http',
      transport: new StreamableHTTPClientTransport(url, {authProvider, requestInit}),
    },
    {
      fallbackOn: () => false,
      kind: 'sse',
      transport: new SSEClientTransport(url, {
        authProvider,
        // EventSource takes no headers of its own: they go on through its fetch.
        eventSourceInit: headers ? {fetch: (input, init) => fetch(input, {...init, headers: {...(init?.headers as Record<string, string>), ...headers}})} : undefined,
        requestInit,
      }),
    },
  ]
}
