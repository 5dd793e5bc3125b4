import type {JsonRpcMessage, JsonRpcResponse} from '../../core/protocol/json-rpc.js'

/** How a server -> client request ended: the client's result, its error, or no answer at all. */
export type ClientAnswer =
  {kind: 'result'; result: unknown} | {kind: 'error'; message: string} | {kind: 'timeout'} | {kind: 'closed'}

interface Pending {
  resolve(answer: ClientAnswer): void
  timer: NodeJS.Timeout
}

/**
 * One client as the app server sees it, whatever carries its messages (stdio lines, an SSE
 * stream): where server -> client messages go, its owner (the bridge's `Hanzo-Owner`), and its
 * requests to the client waiting for an answer. Closing it answers every waiting request with
 * `closed` and tells the listeners (its running turns are interrupted).
 */
export class RpcConnection {
  private readonly pending = new Map<string, Pending>()
  private readonly closeListeners = new Set<() => void>()
  private nextId = 1
  private closed = false

  constructor(
    readonly id: string,
    private readonly deliver: (message: JsonRpcMessage) => void,
    readonly owner?: string,
  ) {}

  notify(method: string, params: unknown): void {
    if (!this.closed) this.deliver({jsonrpc: '2.0', method, params})
  }

  /** Asks the client; the answer, or `timeout` after `timeoutMs`, or `closed` when the connection ends first. */
  request(method: string, params: unknown, timeoutMs: number): Promise<ClientAnswer> {
    if (this.closed) return Promise.resolve({kind: 'closed'})
    // A prefix no client id is likely to share: answers are matched by it.
    const id = `srv-${this.nextId++}`
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.settle(id, {kind: 'timeout'}), timeoutMs)
      this.pending.set(id, {resolve, timer})
      this.deliver({id, jsonrpc: '2.0', method, params})
    })
  }

  /** A response from the client: false when it answers nothing this connection asked. */
  receiveResponse(response: JsonRpcResponse): boolean {
    const id = String(response.id)
    if (!this.pending.has(id)) return false
    this.settle(
      id,
      'result' in response
        ? {kind: 'result', result: response.result}
        : {kind: 'error', message: response.error.message},
    )
    return true
  }

  onClose(listener: () => void): () => void {
    if (this.closed) {
      listener()
      return () => {}
    }

    this.closeListeners.add(listener)
    return () => this.closeListeners.delete(listener)
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    for (const id of [...this.pending.keys()]) this.settle(id, {kind: 'closed'})
    for (const listener of this.closeListeners) listener()
    this.closeListeners.clear()
  }

  private settle(id: string, answer: ClientAnswer): void {
    const pending = this.pending.get(id)
    if (!pending) return
    this.pending.delete(id)
    clearTimeout(pending.timer)
    pending.resolve(answer)
  }
}
