import {createServer, type IncomingMessage} from 'node:http'
import type {AddressInfo} from 'node:net'

/** One scripted answer: a JSON body (object) or raw text, with a status. */
export interface ScriptedAnswer {
  status?: number
  body: Record<string, unknown> | string
}

export interface RecordedRequest {
  path: string
  form: Record<string, string>
}

export interface ScriptedOAuthServer {
  issuer: string
  /** Answers per path, taken in order; the last one repeats once the rest are used up. */
  script: Record<string, ScriptedAnswer[]>
  requests: RecordedRequest[]
  close(): Promise<void>
}

/**
 * An authorization server that says exactly what a test scripts, for what a real one (oidc-provider)
 * never sends on demand: `slow_down`, a 500, HTML instead of JSON, metadata without S256, a foreign
 * verification host. Discovery is served from the issuer unless the script overrides it.
 */
export async function startScriptedOAuthServer(
  script: Record<string, ScriptedAnswer[]> = {},
): Promise<ScriptedOAuthServer> {
  const requests: RecordedRequest[] = []
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname
    requests.push({form: Object.fromEntries(new URLSearchParams(await readBody(req))), path})
    const queue =
      state.script[path] ??
      (path === '/.well-known/openid-configuration' ? [{body: metadata(state.issuer)}] : undefined)
    if (!queue || queue.length === 0) {
      res.writeHead(404, {'content-type': 'application/json'}).end('{"error":"not_found"}')
      return
    }

    const answer = queue.length > 1 ? queue.shift()! : queue[0]
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)
    res
      .writeHead(answer.status ?? 200, {
        'content-type': typeof answer.body === 'string' ? 'text/html' : 'application/json',
      })
      .end(text)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const state = {issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, script}
  return {
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
    get issuer() {
      return state.issuer
    },
    requests,
    script,
  }
}

/** Discovery for a server at `issuer` offering PKCE S256, the device flow and revocation. */
export function metadata(issuer: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    authorization_endpoint: `${issuer}/authorize`,
    code_challenge_methods_supported: ['S256'],
    device_authorization_endpoint: `${issuer}/device`,
    issuer,
    revocation_endpoint: `${issuer}/revoke`,
    token_endpoint: `${issuer}/token`,
    ...overrides,
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
