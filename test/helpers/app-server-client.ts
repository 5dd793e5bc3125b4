import {readFileSync} from 'node:fs'
import {request as httpRequest} from 'node:http'
import {join} from 'node:path'
import {createInterface} from 'node:readline'
import {Ajv2020} from 'ajv/dist/2020.js'

import type {
  ClientMethod,
  NotificationParams,
  PermissionRequest,
  ResultOf,
  ServerNotification,
} from '../../src/server/app/protocol.js'
import {REPO_ROOT, spawnCli} from './cli.js'

/** A JSON-RPC message as it arrives, before the tests look at it. */
export type Message = {
  id?: string | number
  method?: string
  params?: unknown
  result?: unknown
  error?: RpcErrorObject
}
type RpcErrorObject = {code: number; message: string; data?: unknown}

/** What the server sends by itself: its notifications, and its requests to the client. */
export type ServerMethod = ServerNotification | 'permission/request' | 'elicitation/request'
export type ServerParams<N extends ServerMethod> = N extends ServerNotification
  ? NotificationParams<N>
  : PermissionRequest
export type ServerMessage<N extends ServerMethod> = {id?: string | number; method: N; params: ServerParams<N>}
/** A response: `result` typed by the method (undefined at run time when `error` is set). */
export type Reply<M extends string> = {result: M extends ClientMethod ? ResultOf<M> : unknown; error?: RpcErrorObject}

/**
 * A scripted app-server client: requests with their responses, and the server's messages
 * (notifications, permission requests) in arrival order, each taken once by `next`.
 */
export abstract class RpcTestClient {
  readonly received: Message[] = []
  /** Each answered request: its method and the result it got (to check against the schema). */
  readonly results: Array<{method: string; result: unknown}> = []
  private readonly taken = new Set<Message>()
  private readonly waiters = new Set<() => void>()
  private readonly responses = new Map<number, (message: Message) => void>()
  private nextId = 1

  /** Sends a request and resolves with its response (result or error). */
  request<M extends string>(method: M, params?: unknown): Promise<Reply<M>> {
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.responses.set(id, (message) => {
        if ('result' in message) this.results.push({method, result: message.result})
        resolve(message as Reply<M>)
      })
      this.send({id, jsonrpc: '2.0', method, params}).then((response) => {
        if (response) this.deliver(response)
      }, reject)
    })
  }

  /** Answers a server -> client request. */
  async respond(id: string | number, result: unknown): Promise<void> {
    await this.send({id, jsonrpc: '2.0', result})
  }

  /** The first server message not taken yet that matches; waits for it when none has come. */
  async next<N extends ServerMethod>(
    method: N,
    match: (params: ServerParams<N>) => boolean = () => true,
    timeoutMs = 30_000,
  ): Promise<ServerMessage<N>> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = this.all(method, match).find((m) => !this.taken.has(m))
      if (found) {
        this.taken.add(found)
        return found
      }

      if (Date.now() > deadline)
        throw new Error(`no ${method} came; received: ${this.received.map((m) => m.method).join(', ')}`)
      await new Promise<void>((resolve) => {
        this.waiters.add(resolve)
        setTimeout(resolve, 200)
      })
    }
  }

  /** Every server message of this method so far that matches, taken or not. */
  all<N extends ServerMethod>(
    method: N,
    match: (params: ServerParams<N>) => boolean = () => true,
  ): Array<ServerMessage<N>> {
    return this.received.filter((m): m is ServerMessage<N> => m.method === method && match(m.params as ServerParams<N>))
  }

  abstract close(): Promise<void>

  /** Sends one message; HTTP gives a request's response back directly. */
  protected abstract send(message: unknown): Promise<Message | undefined>

  protected deliver(message: Message): void {
    if (message.method === undefined && typeof message.id === 'number' && this.responses.has(message.id)) {
      this.responses.get(message.id)!(message)
      this.responses.delete(message.id)
      return
    }

    this.received.push(message)
    for (const wake of this.waiters) wake()
    this.waiters.clear()
  }
}

/** `hanzo-dev app-server` over stdio: JSON lines both ways. */
export class StdioClient extends RpcTestClient {
  readonly child: ReturnType<typeof spawnCli>

  constructor(args: string[], options: {cwd: string; env: Record<string, string>}) {
    super()
    this.child = spawnCli(['app-server', ...args], {...options, openStdin: true})
    createInterface({input: this.child.stdout!}).on('line', (line) => this.deliver(JSON.parse(line)))
  }

  async close(): Promise<void> {
    this.child.stdin!.end()
    await this.child
  }

  protected async send(message: unknown): Promise<undefined> {
    this.child.stdin!.write(`${JSON.stringify(message)}\n`)
    return undefined
  }
}

export interface RawResponse {
  status: number
  body: string
  headers: Record<string, string | string[] | undefined>
}

/** One HTTP request with exactly these headers (Host and Origin included), the whole answer read. */
export function raw(
  url: string,
  options: {method?: string; headers?: Record<string, string>; body?: string | Buffer} = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {headers: options.headers, method: options.method ?? 'GET'}, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({body: Buffer.concat(chunks).toString('utf8'), headers: res.headers, status: res.statusCode ?? 0}),
      )
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

/** An app-server connection over HTTP: the SSE stream of GET /events, and POST /rpc. */
export class HttpClient extends RpcTestClient {
  connectionId = ''
  private stream?: import('node:http').ClientRequest

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
  ) {
    super()
  }

  /** Opens GET /events; resolves with its connection id once the ready event came. */
  open(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.stream = httpRequest(`${this.url}/events`, {headers: this.headers}, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`GET /events: ${res.statusCode}`))
        let buffer = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          buffer += chunk
          let end: number
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const lines = buffer.slice(0, end).split('\n')
            buffer = buffer.slice(end + 2)
            const data = lines.find((l) => l.startsWith('data: '))?.slice(6)
            if (data === undefined) continue
            if (lines.includes('event: ready')) {
              this.connectionId = JSON.parse(data).connectionId
              resolve(this.connectionId)
            } else {
              this.deliver(JSON.parse(data))
            }
          }
        })
      })
      this.stream.on('error', () => {})
      this.stream.end()
    })
  }

  async close(): Promise<void> {
    this.stream?.destroy()
  }

  /** POST /rpc as this connection; `extra` headers override the connection's. */
  post(body: string | Buffer, extra: Record<string, string> = {}): Promise<RawResponse> {
    return raw(`${this.url}/rpc`, {
      body,
      headers: {...this.headers, 'content-type': 'application/json', 'hanzo-connection': this.connectionId, ...extra},
      method: 'POST',
    })
  }

  protected async send(message: unknown): Promise<Message | undefined> {
    const response = await this.post(JSON.stringify(message))
    if (response.status === 202) return undefined
    if (response.status !== 200) throw new Error(`POST /rpc: ${response.status} ${response.body}`)
    return JSON.parse(response.body) as Message
  }
}

/** Every message the server sent that the committed JSON Schema does not describe. */
export function offSchema(client: RpcTestClient): string[] {
  const ajv = new Ajv2020({strict: false})
  ajv.addSchema(JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'app-server.schema.json'), 'utf8')), 'protocol')
  const at = (table: string, method: string, part: string) =>
    `protocol#/properties/${table}/properties/${method.replaceAll('/', '~1')}/properties/${part}`
  const checks = [
    ...client.results.map(({method, result}) => ({
      ref: at('clientRequests', method, 'result'),
      value: result,
      what: `${method} result`,
    })),
    ...client.received.map((m) => ({
      ref: at(m.id === undefined ? 'serverNotifications' : 'serverRequests', m.method!, 'params'),
      value: m.params,
      what: m.method!,
    })),
  ]
  return checks.flatMap(({ref, value, what}) =>
    ajv.validate({$ref: ref}, value) ? [] : [`${what}: ${ajv.errorsText()}`],
  )
}
