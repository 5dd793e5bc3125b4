import {type ChildProcess, spawn} from 'node:child_process'
import {createInterface} from 'node:readline'
import WebSocket from 'ws'

import {CLI} from './cli.js'

export interface JsonLineServer {
  child: ChildProcess
  /** The JSON line the server printed on start (its url, and a token when it made one). */
  info: Record<string, string>
  /** Everything it wrote to stderr so far. */
  stderr(): string
  stop(): Promise<void>
}

/** Starts a built-CLI server (`app-server --listen`, `bridge`) and waits for the one JSON line it prints on start. */
export async function startJsonLineServer(args: string[], options: {cwd: string; env: Record<string, string>}): Promise<JsonLineServer> {
  const child = spawn(process.execPath, [CLI, ...args], {cwd: options.cwd, env: {PATH: process.env.PATH!, ...options.env}, stdio: ['ignore', 'pipe', 'pipe']})
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
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
      await exited
    },
  }
}

export interface Refusal {
  status: number
  wwwAuthenticate?: string
  body: string
}

/** Tries a WebSocket upgrade that should be refused; resolves with the HTTP answer (rejects if it was accepted). */
export function refusedUpgrade(url: string, options: {origin?: string; token?: string; protocols?: string[]}): Promise<Refusal> {
  const headers: Record<string, string> = {}
  if (options.origin !== undefined) headers.Origin = options.origin
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`
  const ws = new WebSocket(url, options.protocols ?? [], {headers})
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve({body, status: res.statusCode ?? 0, wwwAuthenticate: res.headers['www-authenticate']}))
    })
    ws.on('open', () => {
      ws.terminate()
      reject(new Error('the upgrade was accepted'))
    })
    ws.on('error', () => {})
  })
}

type Message = {id?: number | string | null; method?: string; params?: Record<string, unknown>; result?: unknown; error?: {code: number; message: string}}

/** A JSON-RPC client over a WebSocket, as a web UI would be: requests, and every message it was sent. */
export class RpcSocket {
  readonly received: Message[] = []
  readonly closed: Promise<{code: number; reason: string}>
  private nextId = 1
  private waiters: {check: (m: Message) => boolean; resolve: (m: Message) => void}[] = []

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as Message
      this.received.push(message)
      this.waiters = this.waiters.filter((w) => !(w.check(message) && (w.resolve(message), true)))
    })
    this.closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({code, reason: reason.toString()})))
  }

  /** Connects from `origin` with `token` (Authorization header, or the ["bearer", token] subprotocols). */
  static open(url: string, options: {origin: string; token: string; via?: 'header' | 'protocol'; autoPong?: boolean}): Promise<RpcSocket> {
    const viaProtocol = options.via === 'protocol'
    const ws = new WebSocket(url, viaProtocol ? ['bearer', options.token] : [], {
      autoPong: options.autoPong ?? true,
      headers: {Origin: options.origin, ...(viaProtocol ? {} : {Authorization: `Bearer ${options.token}`})},
    })
    const socket = new RpcSocket(ws)
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(socket))
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)))
      ws.once('error', reject)
    })
  }

  /** Sends a request and resolves with its response (result or error). */
  async request(method: string, params?: Record<string, unknown>): Promise<Message> {
    const id = this.nextId++
    const answer = this.next((m) => m.id === id && m.method === undefined)
    this.send({id, jsonrpc: '2.0', method, ...(params ? {params} : {})})
    return answer
  }

  send(message: object | string): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message))
  }

  /** The first message (already received or still to come) that `check` accepts. */
  next(check: (m: Message) => boolean): Promise<Message> {
    const seen = this.received.find(check)
    if (seen) return Promise.resolve(seen)
    return new Promise((resolve) => this.waiters.push({check, resolve}))
  }

  close(): void {
    this.ws.close()
  }
}
