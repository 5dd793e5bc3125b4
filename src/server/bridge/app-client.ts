import {Agent, type ClientRequest, request} from 'node:http'

import {SseFrameBuffer} from '../../core/protocol/sse-frame-buffer.js'
import {readBody} from '../loopback-guard.js'

/** The app server behind a bridge (`hanzo-dev app-server --listen`, docs/bridge.md): its URL and bearer token. */
export interface AppServerTarget {
  url: URL
  token: string
}

/** Why the app server cannot serve a connection: `gone` (unreachable, stream ended) or `refused` (an HTTP status). */
export class AppServerError extends Error {
  constructor(
    message: string,
    readonly kind: 'gone' | 'refused',
  ) {
    super(message)
    this.name = 'AppServerError'
  }
}

export interface EventHandlers {
  /** One `data:` message of the stream: a server->client JSON-RPC message. */
  message(data: string): void
  /** The stream ended without close() being called: the app server went away. */
  end(reason: string): void
}

/** One connection's way to POST /rpc: a message's HTTP status and body; close() ends those in flight. */
export interface RpcChannel {
  post(body: string): Promise<{status: number; body: string}>
  close(): void
}

export interface EventStream {
  connectionId: string
  pause(): void
  resume(): void
  /** Ends the stream: the app server then ends the connection (denies its prompts, interrupts its turns). */
  close(): void
}

/** How the bridge reaches the app server: over its HTTP contract (`--app`), or in the same process. */
export interface AppServerLink {
  /** Where it is, for the log. */
  readonly description: string
  /** A new app-server connection for `owner`; resolves once it is open. */
  openEvents(owner: string, handlers: EventHandlers): Promise<EventStream>
  rpcChannel(connectionId: string, owner: string): RpcChannel
  close(): void | Promise<void>
}

/** One event or response body may hold this many bytes (the contract's request limit, with room). */
const MAX_BODY_BYTES = 64 * 1024 * 1024
/** An app server that does not say `ready` by then is not one a client should wait on. */
const READY_TIMEOUT_MS = 10_000

/**
 * The bridge's side of the app server's HTTP contract (GET /events, POST /rpc), over one
 * keep-alive agent so a message costs no new TCP connection.
 */
export class AppServerClient implements AppServerLink {
  private readonly agent = new Agent({keepAlive: true})
  private readonly authorization: string
  readonly description: string

  constructor(private readonly target: AppServerTarget) {
    this.authorization = `Bearer ${target.token}`
    this.description = `app server ${target.url.origin}`
  }

  /** Opens `GET /events` for `owner`; resolves once the stream's `ready` event names the connection. */
  openEvents(owner: string, handlers: EventHandlers): Promise<EventStream> {
    return new Promise((resolve, reject) => {
      let stream: EventStream | undefined
      let closed = false
      const req = this.send('GET', '/events', {accept: 'text/event-stream', 'hanzo-owner': owner})
      const timer = setTimeout(
        () =>
          fail(
            new AppServerError(
              `the app server at ${this.target.url.origin} did not open the event stream within ${READY_TIMEOUT_MS / 1000} s`,
              'gone',
            ),
          ),
        READY_TIMEOUT_MS,
      )
      const fail = (error: AppServerError) => {
        clearTimeout(timer)
        if (closed) return
        closed = true
        req.destroy()
        if (stream) handlers.end(error.message)
        else reject(error)
      }

      req.on('error', (error) => fail(gone(this.target, error)))
      req.on('response', (res) => {
        if (res.statusCode !== 200) {
          res.resume()
          return fail(
            new AppServerError(
              `the app server at ${this.target.url.origin} answered GET /events with HTTP ${res.statusCode}${refusalHint(res.statusCode)}`,
              'refused',
            ),
          )
        }

        const frames = new SseFrameBuffer({maxBufferSize: MAX_BODY_BYTES})
        res.on('data', (chunk: Buffer) => {
          let batch
          try {
            batch = frames.feed(chunk)
          } catch {
            return fail(
              new AppServerError(
                `the app server at ${this.target.url.origin} sent an event over ${MAX_BODY_BYTES} bytes`,
                'gone',
              ),
            )
          }

          for (const frame of batch) {
            if (closed) return
            if (stream) {
              if (frame.event === null || frame.event === 'message') handlers.message(frame.data)
              continue
            }

            const connectionId = frame.event === 'ready' ? readyConnectionId(frame.data) : undefined
            if (connectionId === undefined)
              return fail(
                new AppServerError(
                  `the app server at ${this.target.url.origin} did not start GET /events with a ready event`,
                  'refused',
                ),
              )
            stream = {
              close() {
                closed = true
                req.destroy()
              },
              connectionId,
              pause: () => res.pause(),
              resume: () => res.resume(),
            }
            clearTimeout(timer)
            resolve(stream)
          }
        })
        res.on('close', () =>
          fail(new AppServerError(`the app server at ${this.target.url.origin} closed the event stream`, 'gone')),
        )
      })
      req.end()
    })
  }

  /** The POST /rpc side of one connection: its headers built once, its requests ended together. */
  rpcChannel(connectionId: string, owner: string): RpcChannel {
    const inFlight = new Set<ClientRequest>()
    const headers = {'content-type': 'application/json', 'hanzo-connection': connectionId, 'hanzo-owner': owner}
    return {
      close() {
        for (const req of inFlight) req.destroy()
        inFlight.clear()
      },
      post: (body) =>
        new Promise((resolve, reject) => {
          const req = this.send('POST', '/rpc', headers)
          inFlight.add(req)
          req.on('close', () => inFlight.delete(req))
          req.on('error', (error) => reject(gone(this.target, error)))
          req.on('response', (res) => {
            readBody(res, MAX_BODY_BYTES).then(
              (text) => resolve({body: text.toString('utf8'), status: res.statusCode ?? 0}),
              (error: Error) => reject(gone(this.target, error)),
            )
          })
          req.end(body)
        }),
    }
  }

  close(): void {
    this.agent.destroy()
  }

  private send(method: string, path: string, headers: Record<string, string>): ClientRequest {
    // Plain options, not a URL: this runs once per message.
    return request({
      agent: this.agent,
      headers: {...headers, authorization: this.authorization},
      hostname: this.target.url.hostname,
      method,
      path,
      port: this.target.url.port,
    })
  }
}

function readyConnectionId(data: string): string | undefined {
  try {
    const {connectionId} = JSON.parse(data) as {connectionId?: unknown}
    return typeof connectionId === 'string' && connectionId.length > 0 ? connectionId : undefined
  } catch {
    return undefined
  }
}

function gone(target: AppServerTarget, error: Error): AppServerError {
  const code = (error as NodeJS.ErrnoException).code
  return new AppServerError(
    `the app server at ${target.url.origin} is not reachable (${code ?? error.message})`,
    'gone',
  )
}

function refusalHint(status: number | undefined): string {
  if (status === 401)
    return ': it refused the app token (--app-token-file or HANZO_APP_SERVER_TOKEN must hold the token it printed)'
  if (status === 403) return ': it refused the request (check --app is the URL it printed, 127.0.0.1 or localhost)'
  return ''
}
