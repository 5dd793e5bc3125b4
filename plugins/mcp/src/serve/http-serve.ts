import {randomBytes, randomUUID, timingSafeEqual} from 'node:crypto'
import {createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse} from 'node:http'
import type {Server} from '@modelcontextprotocol/sdk/server/index.js'
import type {StreamableHTTPServerTransport} from '@modelcontextprotocol/sdk/server/streamableHttp.js'

import {ServedEvents} from './event-store.js'

const MAX_BODY_BYTES = 4 * 1024 * 1024
/** How long a client whose stream ended waits before it resumes (the priming event's `retry:`): a loopback server is quick to reach again. */
export const RETRY_INTERVAL_MS = 500

export interface HttpServeOptions {
  port: number
  /** Origins a browser page may call from; a request with any other Origin is refused (403). */
  allowOrigins: readonly string[]
  /** One MCP server per client session. */
  newServer: () => Promise<Server>
  /** Given: the token clients must send; otherwise a random one (printed at start). */
  token?: string
}

export interface HttpServe {
  url: string
  token: string
  close(): Promise<void>
}

/**
 * Streamable HTTP on 127.0.0.1 only, for clients that cannot start a process. Every request
 * must carry the bearer token (a local page or another user's process cannot guess it), a Host
 * of this loopback address (DNS rebinding), and no Origin or an allowed one: the checks whose
 * absence gave Claude Code's IDE socket its CVE.
 */
export async function serveHttp(options: HttpServeOptions): Promise<HttpServe> {
  const {StreamableHTTPServerTransport} = await import('@modelcontextprotocol/sdk/server/streamableHttp.js')
  const token = options.token ?? randomBytes(24).toString('base64url')
  const sessions = new Map<string, StreamableHTTPServerTransport>()
  const expected = Buffer.from(`Bearer ${token}`)
  // One bound for all sessions: many clients cannot together outgrow it.
  const events = new ServedEvents()

  const refuse = (res: ServerResponse, status: number, message: string) => {
    res
      .writeHead(status, {'content-type': 'application/json'})
      .end(JSON.stringify({error: {code: -32_000, message}, id: null, jsonrpc: '2.0'}))
  }

  const handle = async (req: IncomingMessage, res: ServerResponse, port: number) => {
    const loopback = [`127.0.0.1:${port}`, `localhost:${port}`]
    if (!loopback.includes(req.headers.host ?? '')) return refuse(res, 403, 'Host not allowed')
    // This very address is same-origin; a rebinding page's Origin names its own host.
    const {origin} = req.headers
    const sameOrigin = loopback.some((address) => origin === `http://${address}`)
    if (origin !== undefined && !sameOrigin && !options.allowOrigins.includes(origin))
      return refuse(res, 403, `Origin ${origin} not allowed`)
    const auth = Buffer.from(req.headers.authorization ?? '')
    if (auth.length !== expected.length || !timingSafeEqual(auth, expected))
      return refuse(res, 401, 'Missing or wrong bearer token')
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp')
      return refuse(res, 404, 'Not found: the endpoint is /mcp')

    const id = req.headers['mcp-session-id']
    let transport = typeof id === 'string' ? sessions.get(id) : undefined
    let body: unknown
    if (req.method === 'POST') {
      body = await readJson(req).catch((error: Error) => error)
      if (body instanceof Error) return refuse(res, 400, body.message)
    }

    if (!transport) {
      if (id !== undefined) return refuse(res, 404, 'Unknown or expired session: initialize again')
      if (req.method !== 'POST') return refuse(res, 400, 'Initialize first (POST)')
      // Known before the transport exists, so its event store is this session's from the start.
      const sessionId = randomUUID()
      const eventStore = events.forSession(sessionId)
      const created = new StreamableHTTPServerTransport({
        eventStore,
        onsessioninitialized: () => void sessions.set(sessionId, created),
        retryInterval: RETRY_INTERVAL_MS,
        sessionIdGenerator: () => sessionId,
      })
      created.onclose = () => {
        sessions.delete(sessionId)
        eventStore.close()
      }

      await (await options.newServer()).connect(created)
      transport = created
    }

    await transport.handleRequest(req, res, body)
  }

  const server: HttpServer = createServer((req, res) => {
    handle(req, res, (server.address() as {port: number}).port).catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, error instanceof Error ? error.message : String(error))
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, '127.0.0.1', () => resolve())
  })
  const {port} = server.address() as {port: number}
  return {
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close()))
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
    token,
    url: `http://127.0.0.1:${port}/mcp`,
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) throw new Error(`Request body over ${MAX_BODY_BYTES} bytes`)
    chunks.push(chunk as Buffer)
  }

  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    throw new Error('Request body is not JSON')
  }
}
