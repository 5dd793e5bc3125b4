import {join} from 'node:path'
import type {OAuthClientProvider} from '@modelcontextprotocol/sdk/client/auth.js'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js'
import type {CallToolResult, Tool} from '@modelcontextprotocol/sdk/types.js'

import type {ClientRequests} from './client-requests.js'
import {InsufficientScopeError} from './scope-step-up.js'
import {DEFAULT_STARTUP_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS, type McpServerEntry} from './server-config.js'

export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'failed' | 'closed'

/** What a connection needs from its surroundings. */
export interface McpConnectionOptions {
  server: McpServerEntry
  /** Where a stdio server starts: the project root. */
  cwd: string
  /** The data dir: stderr logs go under `mcp/logs/`. */
  dataDir: string
  env: Readonly<Record<string, string | undefined>>
  /** The access token of the server's OAuth login (`mcp login`), asked for on each request: it may have been renewed. */
  bearer?: () => Promise<string | undefined>
  /** The SDK's OAuth for runs without a person (headless-auth.ts; the conformance suite's client). */
  authProvider?: OAuthClientProvider
  /** The delays between reconnects after a crash (the core's Backoff); none: reconnect at once. */
  backoff?: {nextDelay(): number; reset(): void}
  /** Called when the server says its tools changed, after the cache is dropped. */
  onToolsChanged?: () => void
  /** The server's requests to the client this one answers (elicitation, sampling): declared and installed before connecting. */
  clientRequests?: ClientRequests
}

/** A server error the user can act on: the server named, what happened, what to try. */
export class McpServerError extends Error {
  override name = 'McpServerError'
  constructor(
    readonly server: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message)
  }
}

const CLIENT_INFO = {name: 'hanzo-dev', version: '0.1.0'}
/** The most pages of `tools/list` read from one server. */
export const MAX_TOOL_PAGES = 100

/**
 * HIP-301 McpConnection: one server, connected on first use, its tools cached until it says
 * they changed. A crash rejects the calls in flight (the SDK does, with "Connection closed"),
 * and the next use reconnects after the backoff's delay.
 */
export class McpConnection {
  state: ConnectionState = 'idle'
  /** Why the last connect failed or the server went away. */
  error?: string
  /** Which HTTP transport answered: `sse` when the server only speaks the older HTTP+SSE. */
  httpTransport?: 'streamable-http' | 'sse'
  private client?: Client
  /** The client of a connect in progress: closing the connection ends it too (its process with it). */
  private opening?: Client
  private connecting?: Promise<Client>
  private toolCache?: Promise<Tool[]>
  private crashed = false
  private stdio?: {pid?: number; exited?: string}
  /** Kept across reconnects: it holds the tokens a machine-to-machine grant got. */
  private authProvider?: OAuthClientProvider

  constructor(private readonly options: McpConnectionOptions) {}

  /** The process id of a running stdio server. */
  get pid(): number | undefined {
    return this.state === 'connected' ? this.stdio?.pid : undefined
  }

  get name(): string {
    return this.options.server.name
  }

  get logFile(): string {
    return join(this.options.dataDir, 'mcp', 'logs', `${this.name}.log`)
  }

  /** Connects (once; concurrent callers share the attempt), within the server's start-up timeout. */
  connect(): Promise<Client> {
    if (this.state === 'closed')
      return Promise.reject(new McpServerError(this.name, `MCP server "${this.name}" is closed`))
    if (this.client && this.state === 'connected') return Promise.resolve(this.client)
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined
    })
    return this.connecting
  }

  async tools(): Promise<Tool[]> {
    const client = await this.connect()
    this.toolCache ??= this.listAll(client).catch(async (error: unknown) => {
      this.toolCache = undefined
      const failure = this.failure(error, 'listing its tools')
      if (error instanceof McpServerError) await this.giveUp(failure.message)
      throw failure
    })
    return this.toolCache
  }

  async callTool(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    // Connected: no await, a call is one round trip and nothing more.
    const client = this.client && this.state === 'connected' ? this.client : await this.connect()
    const timeout = this.options.server.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS
    const call = callSignal(signal)
    try {
      return (await client.callTool({arguments: args, name: tool}, undefined, {
        signal: call.signal,
        timeout,
      })) as CallToolResult
    } catch (error) {
      if (isExpiredSession(error)) {
        // The server dropped our session (a restart): initialize again and retry once.
        await this.reset()
        const again = await this.connect()
        return (await again.callTool({arguments: args, name: tool}, undefined, {
          signal: call.signal,
          timeout,
        })) as CallToolResult
      }

      throw this.failure(error, `calling ${tool}`)
    } finally {
      call.release()
    }
  }

  async close(): Promise<void> {
    this.state = 'closed'
    const clients = [this.client, this.opening].filter((client) => client !== undefined)
    this.client = undefined
    this.opening = undefined
    await Promise.all(clients.map(async (client) => client.close().catch(() => {})))
  }

  private async open(): Promise<Client> {
    if (this.crashed && this.options.backoff) await delay(this.options.backoff.nextDelay())
    this.state = 'connecting'
    const timeoutMs = this.options.server.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS
    const {Client} = await import('@modelcontextprotocol/sdk/client/index.js')
    const {ToolListChangedNotificationSchema} = await import('@modelcontextprotocol/sdk/types.js')
    let timer: NodeJS.Timeout | undefined
    let client: Client | undefined
    try {
      const attempt = (async () => {
        for (const transport of await this.transports()) {
          client = new Client(CLIENT_INFO, {capabilities: this.options.clientRequests?.capabilities ?? {}})
          this.opening = client
          await this.options.clientRequests?.install(client, this.name)
          try {
            await client.connect(transport.transport, {timeout: timeoutMs})
            this.httpTransport = transport.kind
            return client
          } catch (error) {
            await client.close().catch(() => {})
            if (!transport.fallbackOn(error)) throw error
          }
        }

        throw new Error('no transport answered')
      })()
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new McpServerError(
                this.name,
                `MCP server "${this.name}" did not start within ${timeoutMs} ms`,
                this.hint(),
              ),
            ),
          timeoutMs,
        )
      })
      const connected = await Promise.race([attempt, timeout])
      if ((this.state as ConnectionState) === 'closed')
        throw new McpServerError(this.name, `MCP server "${this.name}" is closed`)
      connected.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        this.toolCache = undefined
        this.options.onToolsChanged?.()
      })
      connected.onclose = () => this.closedUnderUs(connected)
      this.client = connected
      this.state = 'connected'
      this.error = undefined
      this.crashed = false
      this.options.backoff?.reset()
      return connected
    } catch (error) {
      await client?.close().catch(() => {})
      if ((this.state as ConnectionState) === 'closed')
        throw new McpServerError(this.name, `MCP server "${this.name}" is closed`)
      this.state = 'failed'
      const failure = this.failure(error, 'starting')
      this.error = failure.message
      throw failure
    } finally {
      clearTimeout(timer)
      this.opening = undefined
    }
  }

  private closedUnderUs(client: Client): void {
    if (this.client !== client || this.state === 'closed') return
    this.client = undefined
    this.toolCache = undefined
    this.crashed = true
    this.state = 'failed'
    this.error = `MCP server "${this.name}" closed the connection`
  }

  private async reset(): Promise<void> {
    const client = this.client
    this.client = undefined
    this.toolCache = undefined
    this.state = 'idle'
    await client?.close().catch(() => {})
  }

  /** A server past the listing's bounds is left out: closed (its process ended), failed, with why. */
  private async giveUp(why: string): Promise<void> {
    await this.reset()
    this.state = 'failed'
    this.error = why
  }

  private async transports(): Promise<
    {transport: Transport; kind?: 'streamable-http' | 'sse'; fallbackOn(error: unknown): boolean}[]
  > {
    const {server} = this.options
    const {transport} = server
    if (transport.type === 'stdio') {
      const {StdioMcpTransport} = await import('./stdio-transport.js')
      const stdio = new StdioMcpTransport({
        ...transport,
        cwd: this.options.cwd,
        logFile: this.logFile,
        parentEnv: this.options.env,
      })
      this.stdio = stdio
      return [{fallbackOn: () => false, transport: stdio}]
    }

    const [{httpTransports}, {machineAuthProvider}] = await Promise.all([
      import('./http-transport.js'),
      import('./headless-auth.js'),
    ])
    this.authProvider ??= this.options.authProvider ?? (await machineAuthProvider(server))
    return httpTransports(transport.url, transport.headers, this.options.bearer, this.authProvider)
  }

  /**
   * Every page of the server's tools, bounded: a server that always answers with a `nextCursor`
   * (or pages slowly forever) would keep `mcp list` and the session's start waiting. Past
   * {@link MAX_TOOL_PAGES} pages, or the start-up timeout for the whole listing, the server fails.
   */
  private async listAll(client: Client): Promise<Tool[]> {
    const timeoutMs = this.options.server.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS
    const deadline = AbortSignal.timeout(timeoutMs)
    const tools: Tool[] = []
    let cursor: string | undefined
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      let answer
      try {
        answer = await client.listTools(cursor ? {cursor} : undefined, {signal: deadline, timeout: timeoutMs})
      } catch (error) {
        if (!deadline.aborted) throw error
        throw new McpServerError(
          this.name,
          `MCP server "${this.name}" did not list its tools within ${timeoutMs} ms`,
          this.hint(),
        )
      }

      tools.push(...answer.tools)
      cursor = answer.nextCursor
      if (!cursor) return tools
    }

    throw new McpServerError(
      this.name,
      `MCP server "${this.name}" lists more than ${MAX_TOOL_PAGES} pages of tools (it may never stop)`,
      'ask its maintainers; hanzo-dev left it out',
    )
  }

  private hint(): string {
    if (this.stdio?.exited) return `its process exited (${this.stdio.exited}); its log is ${this.logFile}`
    return this.options.server.transport.type === 'stdio'
      ? `its log is ${this.logFile}; raise mcp_servers.${this.name}.startup_timeout_ms if it is only slow`
      : `check that ${this.options.server.transport.url.origin} is up; raise mcp_servers.${this.name}.startup_timeout_ms if it is only slow`
  }

  private failure(error: unknown, doing: string): McpServerError {
    if (error instanceof McpServerError) return error
    const message = error instanceof Error ? error.message : String(error)
    if (error instanceof Error && (error.name === 'UnauthorizedError' || (error as {code?: unknown}).code === 401)) {
      return new McpServerError(
        this.name,
        `MCP server "${this.name}" needs you to log in`,
        `run hanzo-dev mcp login ${this.name}`,
      )
    }

    if (error instanceof InsufficientScopeError) {
      return new McpServerError(
        this.name,
        `MCP server "${this.name}" needs a login with more access (scopes: ${error.scopes.join(' ')})`,
        `run hanzo-dev mcp login ${this.name} --scope "${error.scopes.join(' ')}"`,
      )
    }

    const {transport} = this.options.server
    if (transport.type === 'stdio' && (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
      return new McpServerError(
        this.name,
        `MCP server "${this.name}" cannot start: ${transport.command} not found`,
        `install it, or fix mcp_servers.${this.name}.command`,
      )
    }

    // fetch says only "fetch failed"; what failed (ECONNREFUSED, a DNS name) is its cause.
    const cause = (error as {cause?: {code?: string; message?: string}} | undefined)?.cause
    const why =
      message === 'fetch failed' && cause
        ? `cannot reach ${transport.type === 'http' ? transport.url.origin : 'it'} (${cause.code ?? cause.message})`
        : message
    return new McpServerError(this.name, `MCP server "${this.name}" failed ${doing}: ${why}`, this.hint())
  }
}

function isExpiredSession(error: unknown): boolean {
  return error instanceof Error && error.name !== 'McpError' && (error as {code?: unknown}).code === 404
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms).unref()
  })
}

/**
 * A signal for one call that follows the turn's. The SDK never removes the abort listener it adds
 * to the signal it is given: handed the turn's signal, every call of a turn would stay attached
 * to it, and an interrupt would send `notifications/cancelled` for calls long finished.
 */
function callSignal(turn: AbortSignal | undefined): {signal: AbortSignal | undefined; release(): void} {
  if (!turn) return {release() {}, signal: undefined}
  const call = new AbortController()
  const forward = () => call.abort(turn.reason)
  if (turn.aborted) forward()
  else turn.addEventListener('abort', forward, {once: true})
  return {release: () => turn.removeEventListener('abort', forward), signal: call.signal}
}
