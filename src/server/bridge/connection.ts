import type {WebSocket} from 'ws'

import {AppServerError, type EventStream, type RpcChannel} from './app-client.js'
import {type JsonRpcId, RPC_ERRORS, rpcError} from '../../core/protocol/json-rpc.js'
import {classifyClientFrame} from './client-frames.js'

/** The close codes a client sees (docs/bridge.md). 1009 (too big) is sent by `ws` itself (maxPayload). */
export const CLOSE_GOING_AWAY = 1001
export const CLOSE_BINARY = 1003
export const CLOSE_TOKEN_EXPIRED = 1008
export const CLOSE_APP_SERVER_GONE = 1011

/** Past this many bytes queued for a slow client, the app server's stream waits (backpressure). */
const HIGH_WATER = 4 * 1024 * 1024
const LOW_WATER = 1024 * 1024

/**
 * One client WebSocket joined to one app-server connection: each SSE message becomes a text
 * frame, each text frame one POST /rpc carrying the verified owner. Whichever side ends first
 * ends the other: a closed socket ends the event stream (so the app server interrupts the
 * connection's turns), a gone app server closes the socket with 1011.
 */
export class BridgeConnection {
  private paused = false
  private ended = false

  constructor(
    private readonly ws: WebSocket,
    private readonly events: EventStream,
    private readonly rpc: RpcChannel,
    readonly owner: string,
    private readonly log: (line: string) => void,
  ) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) return this.end(CLOSE_BINARY, 'binary frames are not accepted: send JSON-RPC as text')
      this.forward(data.toString())
    })
    ws.on('close', (code) => {
      this.log(`connection ${events.connectionId} (owner ${owner}) closed: ${code}`)
      this.end()
    })
    ws.on('error', () => this.end())
  }

  get connectionId(): string {
    return this.events.connectionId
  }

  /** A server->client message from the event stream. */
  deliver(data: string): void {
    if (this.ended) return
    this.ws.send(data, () => this.drained())
    if (!this.paused && this.ws.bufferedAmount > HIGH_WATER) {
      this.paused = true
      this.events.pause()
    }
  }

  /** Closes the socket (when still open) and ends the event stream and the requests in flight. */
  end(code?: number, reason?: string): void {
    if (this.ended) return
    this.ended = true
    this.events.close()
    this.rpc.close()
    if (code !== undefined) this.ws.close(code, reason)
  }

  private drained(): void {
    if (this.paused && this.ws.bufferedAmount < LOW_WATER) {
      this.paused = false
      this.events.resume()
    }
  }

  private forward(text: string): void {
    const frame = classifyClientFrame(text)
    if ('reply' in frame) return this.reply(frame.reply)
    this.rpc.post(frame.forward).then(
      ({body, status}) => this.answer(status, body, frame.requestId),
      (error: unknown) => {
        if (this.ended) return
        if (error instanceof AppServerError && error.kind === 'gone') return this.appServerGone(error.message)
        if (frame.requestId !== undefined)
          this.reply(
            JSON.stringify(
              rpcError(frame.requestId, RPC_ERRORS.internalError, 'the bridge could not forward the request'),
            ),
          )
      },
    )
  }

  private answer(status: number, body: string, requestId: JsonRpcId | undefined): void {
    if (status === 200 || status === 202) {
      if (body.length > 0) this.reply(body)
      return
    }

    // The connection is unknown to the app server: it restarted or dropped it.
    if (status === 404) return this.appServerGone(`the app server no longer knows connection ${this.connectionId}`)
    this.log(`connection ${this.connectionId}: the app server answered POST /rpc with HTTP ${status}`)
    if (requestId === undefined) return
    const error = jsonRpcError(body) ?? {
      code: status === 413 ? RPC_ERRORS.invalidRequest : RPC_ERRORS.internalError,
      message: `the app server refused the request (HTTP ${status})`,
    }
    this.reply(JSON.stringify(rpcError(requestId, error.code, error.message)))
  }

  private appServerGone(reason: string): void {
    this.log(`connection ${this.connectionId}: ${reason}`)
    this.end(CLOSE_APP_SERVER_GONE, 'app server gone')
  }

  private reply(text: string): void {
    if (!this.ended) this.ws.send(text)
  }
}

/** The error object of a JSON-RPC error body, if that is what the app server sent. */
function jsonRpcError(body: string): {code: number; message: string} | undefined {
  try {
    const {error} = JSON.parse(body) as {error?: {code?: unknown; message?: unknown}}
    return typeof error?.code === 'number' && typeof error.message === 'string'
      ? (error as {code: number; message: string})
      : undefined
  } catch {
    return undefined
  }
}
