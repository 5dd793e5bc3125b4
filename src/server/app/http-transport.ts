import {randomUUID} from 'node:crypto'
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http'

import {RPC_ERRORS, rpcError} from '../../core/protocol/json-rpc.js'
import {bearerMatches, BodyTooLargeError, loopbackHost, readBody} from '../loopback-guard.js'
import type {AppServer} from './app-server.js'
import type {RpcConnection} from './rpc-connection.js'

const MAX_BODY_BYTES = 4 * 1024 * 1024
const KEEPALIVE_MS = 15_000

export interface HttpTransportOptions {
  /** 0 picks a free one. */
  port: number
  token: string
}

export interface HttpTransport {
  url: string
  close(): Promise<void>
}

/**
 * The app server over HTTP on 127.0.0.1 (docs/app-server.md, "HTTP"; the contract the bridge is
 * built against): `GET /events` opens a connection, an SSE stream of every server -> client
 * message; `POST /rpc` with `Hanzo-Connection` carries one client message. Every request needs
 * the bearer token and a loopback Host, and none may carry an Origin: browsers come through the
 * bridge, never here. A connection lasts as long as its stream.
 */
export async function serveHttp(server: AppServer, options: HttpTransportOptions): Promise<HttpTransport> {
  const streams = new Map<string, {connection: RpcConnection; res: ServerResponse}>()

  const refuse = (res: ServerResponse, status: number, message: string, code: number = RPC_ERRORS.serverError) => {
    res.writeHead(status, {'content-type': 'application/json'}).end(JSON.stringify(rpcError(null, code, message)))
  }

  const openEvents = (req: IncomingMessage, res: ServerResponse) => {
    const id = randomUUID()
    res.writeHead(200, {'cache-control': 'no-cache', connection: 'keep-alive', 'content-type': 'text/event-stream'})
    // Each message is one line of JSON: JSON.stringify escapes every newline inside a string.
    const connection = server.connect(
      id,
      (message) => void res.write(`data: ${JSON.stringify(message)}\n\n`),
      header(req, 'hanzo-owner'),
    )
    streams.set(id, {connection, res})
    res.write(`event: ready\ndata: ${JSON.stringify({connectionId: id})}\n\n`)
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS)
    res.once('close', () => {
      clearInterval(keepalive)
      streams.delete(id)
      connection.close()
    })
  }

  const post = async (req: IncomingMessage, res: ServerResponse) => {
    const stream = streams.get(header(req, 'hanzo-connection') ?? '')
    if (!stream)
      return refuse(
        res,
        404,
        'Unknown connection: open GET /events and send its connectionId in the Hanzo-Connection header',
      )
    if (header(req, 'hanzo-owner') !== stream.connection.owner)
      return refuse(res, 403, "Hanzo-Owner differs from the connection's owner")
    let body: Buffer
    try {
      body = await readBody(req, MAX_BODY_BYTES)
    } catch (error) {
      if (error instanceof BodyTooLargeError) return refuse(res, 413, error.message)
      throw error
    }

    let value: unknown
    try {
      value = JSON.parse(body.toString('utf8'))
    } catch {
      return refuse(res, 400, 'Parse error: the body is one JSON-RPC message as JSON', RPC_ERRORS.parseError)
    }

    const response = await server.handle(stream.connection, value)
    if (response) res.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify(response))
    else res.writeHead(202).end()
  }

  const handle = async (req: IncomingMessage, res: ServerResponse, port: number) => {
    if (!loopbackHost(req.headers.host, port)) return refuse(res, 403, 'Host not allowed: use 127.0.0.1 or localhost')
    if (req.headers.origin !== undefined)
      return refuse(
        res,
        403,
        'Requests from a browser page are refused: a page reaches hanzo-dev through `hanzo-dev bridge`',
      )
    if (!bearerMatches(req.headers.authorization, options.token))
      return refuse(res, 401, 'Missing or wrong bearer token')
    const path = new URL(req.url ?? '/', 'http://x').pathname
    if (path === '/events' && req.method === 'GET') return openEvents(req, res)
    if (path === '/rpc' && req.method === 'POST') return post(req, res)
    if (path === '/events' || path === '/rpc')
      return refuse(res, 405, `${req.method} ${path} is not allowed: GET /events, POST /rpc`)
    refuse(res, 404, 'Not found: the endpoints are GET /events and POST /rpc')
  }

  const http = createServer((req, res) => {
    handle(req, res, (http.address() as {port: number}).port).catch((error: unknown) => {
      if (!res.headersSent)
        refuse(res, 500, error instanceof Error ? error.message : String(error), RPC_ERRORS.internalError)
    })
  })
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(options.port, '127.0.0.1', () => resolve())
  })
  const {port} = http.address() as {port: number}
  return {
    async close() {
      for (const {res} of streams.values()) res.end()
      await new Promise<void>((resolve) => {
        http.close(() => resolve())
        http.closeAllConnections()
      })
    },
    url: `http://127.0.0.1:${port}`,
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}
