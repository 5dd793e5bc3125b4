import {createServer, type IncomingMessage, STATUS_CODES} from 'node:http'
import type {Duplex} from 'node:stream'
import type {WebSocket} from 'ws'

import type {AppServerLink, EventStream} from './app-client.js'
import {BridgeConnection, CLOSE_APP_SERVER_GONE, CLOSE_GOING_AWAY, CLOSE_TOKEN_EXPIRED} from './connection.js'
import {BEARER_PROTOCOL, type JwtVerdict, upgradeToken} from './jwt.js'
import type {OriginAllowList} from './origins.js'

export interface BridgeOptions {
  /** 127.0.0.1 or localhost: the bridge never listens beyond this machine. */
  host: string
  /** 0 picks a free port. */
  port: number
  app: AppServerLink
  origins: OriginAllowList
  verify: (token: string) => Promise<JwtVerdict>
  /** The largest frame and message a client may send (larger: closed with 1009). */
  maxMessageBytes: number
  /** How often each client is pinged; one that has not answered the last ping by the next is dropped. */
  pingIntervalMs: number
  /** One line of the bridge's log (stderr); never handed a token. */
  log: (line: string) => void
}

export interface RunningBridge {
  url: string
  close(): Promise<void>
}

const SHUTDOWN_GRACE_MS = 1000

/** Refused upgrades as the log and the client see them (the reason is the JWT check's, never the token). */
interface Refusal {
  status: 401 | 403 | 502 | 503
  reason: string
}

/**
 * The WebSocket bridge of HIP-301 §14 (docs/bridge.md): every upgrade passes the Origin
 * allow-list (else 403) and the JWT (else 401) before the app server hears of it, then gets its
 * own app-server connection scoped to the token's owner. `ws` is imported here, on first use.
 */
export async function startBridge(options: BridgeOptions): Promise<RunningBridge> {
  const {WebSocketServer} = await import('ws')
  const {app} = options
  const connections = new Set<BridgeConnection>()
  const wss = new WebSocketServer({
    // The token rides in the subprotocols; answering `bearer` keeps it out of the response.
    handleProtocols: (offered) => (offered.has(BEARER_PROTOCOL) ? BEARER_PROTOCOL : false),
    maxPayload: options.maxMessageBytes,
    noServer: true,
    perMessageDeflate: false,
  })

  const server = createServer((_req, res) => {
    res
      .writeHead(426, {'content-type': 'text/plain; charset=utf-8', upgrade: 'websocket'})
      .end('This is the hanzo-dev bridge: connect with a WebSocket (docs/bridge.md).\n')
  })

  const admit = async (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const checked = await check(req)
    if ('status' in checked) {
      options.log(
        `refused ${req.socket.remoteAddress} origin ${JSON.stringify(req.headers.origin ?? null)}: ${checked.status} ${checked.reason}`,
      )
      return refuse(socket, checked)
    }

    // The app-server connection first: a client is upgraded only when there is something to talk to.
    let connection: BridgeConnection | undefined
    const early: string[] = []
    let goneEarly: string | undefined
    let events: EventStream
    try {
      events = await app.openEvents(checked.owner, {
        end: (reason) => (connection ? connection.end(CLOSE_APP_SERVER_GONE, 'app server gone') : (goneEarly = reason)),
        message: (data) => (connection ? connection.deliver(data) : early.push(data)),
      })
    } catch (error) {
      options.log(`refused owner ${checked.owner}: 502 ${(error as Error).message}`)
      return refuse(socket, {reason: 'the app server behind this bridge is not available', status: 502})
    }

    if (socket.destroyed) return events.close()
    // ws refuses a malformed upgrade itself (400) without calling back: the stream must not outlive it.
    socket.once('close', () => connection === undefined && events.close())
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      connection = new BridgeConnection(
        ws,
        events,
        app.rpcChannel(events.connectionId, checked.owner),
        checked.owner,
        options.log,
      )
      connections.add(connection)
      ws.once('close', () => connections.delete(connection!))
      options.log(
        `connection ${events.connectionId} (owner ${checked.owner}) open from ${JSON.stringify(req.headers.origin)}`,
      )
      keepAlive(ws, options.pingIntervalMs)
      closeAtExpiry(ws, connection, checked.expiresAt)
      for (const data of early) connection.deliver(data)
      if (goneEarly !== undefined) {
        options.log(`connection ${events.connectionId}: ${goneEarly}`)
        connection.end(CLOSE_APP_SERVER_GONE, 'app server gone')
      }
    })
  }

  const check = async (req: IncomingMessage): Promise<Refusal | {owner: string; expiresAt: number}> => {
    if (!options.origins.allows(req.headers.origin))
      return {reason: req.headers.origin === undefined ? 'no Origin header' : 'the Origin is not allowed', status: 403}
    const {error, token} = upgradeToken(req.headers)
    if (token === undefined) return {reason: error!, status: 401}
    const verdict = await options.verify(token)
    return verdict.ok ? {expiresAt: verdict.expiresAt, owner: verdict.owner} : verdict
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    admit(req, socket, head).catch((error: unknown) => {
      options.log(`upgrade failed: ${(error as Error).message}`)
      if (!socket.destroyed) socket.destroy()
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => resolve())
  })
  const {port} = server.address() as {port: number}
  return {
    async close() {
      for (const connection of connections) connection.end(CLOSE_GOING_AWAY, 'bridge shutting down')
      // A client that does not answer the close frame would hold the server open for ws's 30 s.
      const grace = setTimeout(() => {
        for (const ws of wss.clients) ws.terminate()
      }, SHUTDOWN_GRACE_MS)
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      clearTimeout(grace)
      await app.close()
    },
    url: `ws://${options.host}:${port}`,
  }
}

/** A plain HTTP answer on the raw socket, then the socket is gone: nothing was upgraded. */
function refuse(socket: Duplex, {reason, status}: Refusal): void {
  if (socket.destroyed) return
  const body = `${reason}\n`
  const challenge = status === 401 ? 'WWW-Authenticate: Bearer error="invalid_token"\r\n' : ''
  socket.once('finish', () => socket.destroy())
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${challenge}\r\n${body}`,
  )
}

/** The longest delay setTimeout keeps (about 24.8 days); a token valid for longer outlives any timer. */
const MAX_TIMER_MS = 2 ** 31 - 1

/** A socket lives no longer than its token: it is closed with 1008 when the JWT expires. */
function closeAtExpiry(ws: WebSocket, connection: BridgeConnection, expiresAt: number): void {
  const delay = Math.max(0, expiresAt - Date.now())
  if (delay > MAX_TIMER_MS) return
  const timer = setTimeout(() => connection.end(CLOSE_TOKEN_EXPIRED, 'token expired'), delay)
  timer.unref()
  ws.once('close', () => clearTimeout(timer))
}

/** Pings on an interval; a client that has not ponged since the last ping is dropped. */
function keepAlive(ws: WebSocket, intervalMs: number): void {
  let alive = true
  ws.on('pong', () => (alive = true))
  const timer = setInterval(() => {
    if (!alive) return ws.terminate()
    alive = false
    ws.ping()
  }, intervalMs)
  timer.unref()
  ws.once('close', () => clearInterval(timer))
}
