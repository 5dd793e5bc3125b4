/**
 * A server's `403` with `WWW-Authenticate: Bearer error="insufficient_scope", scope="..."`
 * (MCP authorization, scope step-up): the token of `mcp login` is good but asks for too little.
 * A session cannot open a browser mid-turn, so it says which login asks for more instead.
 */
export class InsufficientScopeError extends Error {
  override name = 'InsufficientScopeError'
  constructor(readonly scopes: string[]) {
    super(`the server needs the scopes ${scopes.join(' ')}`)
  }
}

/** The scopes a step-up challenge asks for, or undefined when the answer is no such challenge. */
export async function insufficientScope(response: Response): Promise<string[] | undefined> {
  if (response.status !== 403) return undefined
  const {extractWWWAuthenticateParams} = await import('@modelcontextprotocol/sdk/client/auth.js')
  const challenge = extractWWWAuthenticateParams(response)
  if (challenge.error !== 'insufficient_scope') return undefined
  // RFC 6749 §3.3's scope-token characters only: the scopes end up in a message and a command line.
  return (challenge.scope?.split(' ') ?? []).filter((scope) => /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(scope))
}
