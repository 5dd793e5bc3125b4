import {createInterface} from 'node:readline'
import WebSocket from 'ws'

import {type Message, RpcTestClient} from './app-server-client.js'
import {spawnCli} from './cli.js'

export interface JsonLineServer {
  child: ReturnType<typeof spawnCli>
  /** The JSON line the server printed on start (its url, and a token when it made one). */
  info: Record<string, string>
  /** Everything it wrote to stderr so far. */
  stderr(): string
  stop(): Promise<void>
}

/** Starts a built-CLI server (`app-server --listen`, `bridge`) and waits for the one JSON line it prints on start. */
export async function startJsonLineServer(
  args: string[],
  options: {cwd: string; env: Record<string, string>},
): Promise<JsonLineServer> {
  const child = spawnCli(args, {...options, openStdin: true})
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({input: child.stdout!}).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`${args[0]} exited ${code} before it started: ${stderr}`)))
  })
  return {
    child,
    info: JSON.parse(line) as Record<string, string>,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM')
      await child
    },
  }
}

export interface Refusal {
  status: number
  wwwAuthenticate?: string
  body: string
}

/** Tries a WebSocket upgrade that should be refused; resolves with the HTTP answer (rejects if it was accepted). */
export function refusedUpgrade(
  url: string,
  options: {origin?: string; token?: string; protocols?: string[]},
): Promise<Refusal> {
  const headers: Record<string, string> = {}
  if (options.origin !== undefined) headers.Origin = options.origin
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`
  const ws = new WebSocket(url, options.protocols ?? [], {headers})
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () =>
        resolve({body, status: res.statusCode ?? 0, wwwAuthenticate: res.headers['www-authenticate']}),
      )
    })
    ws.on('open', () => {
      ws.terminate()
      reject(new Error('the upgrade was accepted'))
    })
    ws.on('error', () => {})
  })
}

/** A web UI's side of the bridge: one `ws` socket, each JSON-RPC message a text frame. */
export class BridgeClient extends RpcTestClient {
  readonly closed: Promise<{code: number; reason: string}>

  private constructor(readonly ws: WebSocket) {
    super()
    ws.on('message', (data) => this.deliver(JSON.parse(data.toString()) as Message))
    this.closed = new Promise((resolve) =>
      ws.once('close', (code, reason) => resolve({code, reason: reason.toString()})),
    )
  }

  /** Connects from `origin` with `token` (Authorization header, or the ["bearer", token] subprotocols). */
  static open(
    url: string,
    options: {origin: string; token: string; via?: 'header' | 'protocol'; autoPong?: boolean},
  ): Promise<BridgeClient> {
    const viaProtocol = options.via === 'protocol'
    const ws = new WebSocket(url, viaProtocol ? ['bearer', options.token] : [], {
      autoPong: options.autoPong ?? true,
      headers: {Origin: options.origin, ...(viaProtocol ? {} : {Authorization: `Bearer ${options.token}`})},
    })
    const client = new BridgeClient(ws)
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client))
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)))
      ws.once('error', reject)
    })
  }

  /** A frame exactly as given: text that is not one message, or binary. */
  sendFrame(data: string | Buffer): void {
    this.ws.send(data)
  }

  async close(): Promise<void> {
    this.ws.close()
    await this.closed
  }

  /** Answers arrive as frames of their own (delivered above), not as the send's result. */
  protected async send(message: unknown): Promise<undefined> {
    this.ws.send(JSON.stringify(message))
    return undefined
  }
}
