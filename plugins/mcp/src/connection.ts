import {join} from 'node:path'
import type {OAuthClientProvider} from '@modelcontextprotocol/sdk/client/auth.js'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {RequestOptions} from '@modelcontextprotocol/sdk/shared/protocol.js'
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js'
import type {
  CallToolResult,
  CompleteRequest,
  CompleteResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/sdk/types.js'

import {callSignal} from './call-signal.js'
import type {ClientRequests} from './client-requests.js'
import {followServer, newMcpClient} from './client-setup.js'
import {listPages, PAGES, type PageReader} from './paged-list.js'
import {DEFAULT_STARTUP_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS, type McpServerEntry} from './server-config.js'
import {connectionFailure, McpServerError} from './server-error.js'
import {ServerLog} from './server-log.js'

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
  /** Called when a resource we subscribed to changed (`notifications/resources/updated`). */
  onResourceUpdated?: (uri: string) => void
  /** The server's requests to the client this one answers (elicitation, sampling): declared and installed before connecting. */
  clientRequests?: ClientRequests
  /** The session's workspace roots (absolute directories), answered to `roots/list`; none: no roots capability. */
  roots?: () => readonly string[]
}

export {McpServerError} from './server-error.js'
export {MAX_TOOL_PAGES} from './paged-list.js'

const CLIENT_INFO = {name: 'hanzo-dev', version: '0.1.0'}

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
  /** Resources, templates and prompts as listed, dropped when the server says they changed. */
  private readonly lists = new Map<string, Promise<unknown[]>>()
  private crashed = false
  private stdio?: {pid?: number; exited?: string}
  /** Kept across reconnects: it holds the tokens a machine-to-machine grant got. */
  private authProvider?: OAuthClientProvider
  /** What the server logged through `notifications/message` (to its log file, and `/mcp`). */
  readonly log: ServerLog

  constructor(private readonly options: McpConnectionOptions) {
    this.log = new ServerLog(this.logFile)
  }

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
    this.toolCache ??= this.listAll(client, 'tools', PAGES.tools).catch(async (error: unknown) => {
      this.toolCache = undefined
      const failure = this.failure(error, 'listing its tools')
      if (error instanceof McpServerError) await this.giveUp(failure.message)
      throw failure
    })
    return this.toolCache
  }

  async callTool(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    return this.request(
      `calling ${tool}`,
      async (client, options) =>
        (await client.callTool({arguments: args, name: tool}, undefined, options)) as CallToolResult,
      signal,
    )
  }

  /** What the server offers besides tools (resources, prompts, completions, logging); undefined until connected. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.state === 'connected' ? this.client?.getServerCapabilities() : undefined
  }

  /** Its resources (every page, bounded as tools are); none when it has no resources. */
  async resources(): Promise<Resource[]> {
    return this.listOnce('resources', 'resources', PAGES.resources)
  }

  async resourceTemplates(): Promise<ResourceTemplate[]> {
    return this.listOnce('resource templates', 'resources', PAGES.resourceTemplates)
  }

  async prompts(): Promise<Prompt[]> {
    return this.listOnce('prompts', 'prompts', PAGES.prompts)
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.request(`reading ${uri}`, (client, options) => client.readResource({uri}, options), signal)
  }

  async getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<GetPromptResult> {
    return this.request(
      `getting prompt ${name}`,
      (client, options) => client.getPrompt({arguments: args, name}, options),
      signal,
    )
  }

  /** `completion/complete`; no values when the server does not complete. */
  async complete(params: CompleteRequest['params'], signal?: AbortSignal): Promise<CompleteResult['completion']> {
    if (!(await this.connect()).getServerCapabilities()?.completions) return {values: []}
    const answer = await this.request('completing', (client, options) => client.complete(params, options), signal)
    return answer.completion
  }

  /** Asks the server to say when `uri` changes; false when it cannot (no `resources.subscribe`). */
  async subscribe(uri: string): Promise<boolean> {
    if (!(await this.connect()).getServerCapabilities()?.resources?.subscribe) return false
    await this.request(`subscribing to ${uri}`, (client, options) => client.subscribeResource({uri}, options))
    return true
  }

  async unsubscribe(uri: string): Promise<void> {
    await this.request(`unsubscribing from ${uri}`, (client, options) => client.unsubscribeResource({uri}, options))
  }

  /** `ping`: how long the connected server took to answer, in milliseconds. */
  async ping(signal?: AbortSignal): Promise<number> {
    const started = performance.now()
    await this.request('answering ping', (client, options) => client.ping(options), signal)
    return Math.round(performance.now() - started)
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
    let timer: NodeJS.Timeout | undefined
    let client: Client | undefined
    try {
      const attempt = (async () => {
        for (const transport of await this.transports()) {
          client = await this.newClient()
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
      await followServer(connected, {
        log: this.log,
        logLevel: this.options.server.logLevel,
        promptsChanged: () => this.lists.delete('prompts'),
        resourceUpdated: (uri) => this.options.onResourceUpdated?.(uri),
        resourcesChanged: () => {
          this.lists.delete('resources')
          this.lists.delete('resource templates')
        },
        timeoutMs,
        toolsChanged: () => {
          this.toolCache = undefined
          this.options.onToolsChanged?.()
        },
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

  /** The SDK client, before it connects: what we declare, and the handlers of what the server may ask or say. */
  private newClient(): Promise<Client> {
    return newMcpClient(CLIENT_INFO, {
      capabilities: this.options.clientRequests?.capabilities,
      log: this.log,
      roots: this.options.roots,
    })
  }

  /**
   * One request on the connection, within the tool timeout, following `signal` (an abort sends
   * `notifications/cancelled`); a server that dropped our session is initialized again and asked once more.
   */
  private async request<T>(
    doing: string,
    run: (client: Client, options: RequestOptions) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    // Connected: no await, a call is one round trip and nothing more.
    const client = this.client && this.state === 'connected' ? this.client : await this.connect()
    const timeout = this.options.server.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS
    const call = callSignal(signal)
    try {
      return await run(client, {signal: call.signal, timeout})
    } catch (error) {
      if (isExpiredSession(error)) {
        await this.reset()
        return await run(await this.connect(), {signal: call.signal, timeout})
      }

      throw this.failure(error, doing)
    } finally {
      call.release()
    }
  }

  /** A listing of a server feature, cached until the server says it changed; empty when the server lacks the feature. */
  private async listOnce<T>(what: string, feature: 'resources' | 'prompts', page: PageReader<T>): Promise<T[]> {
    const client = await this.connect()
    if (!client.getServerCapabilities()?.[feature]) return []
    let listed = this.lists.get(what) as Promise<T[]> | undefined
    if (!listed) {
      listed = this.listAll(client, what, page).catch((error: unknown) => {
        this.lists.delete(what)
        throw this.failure(error, `listing its ${what}`)
      })
      this.lists.set(what, listed)
    }

    return listed
  }

  private closedUnderUs(client: Client): void {
    if (this.client !== client || this.state === 'closed') return
    this.client = undefined
    this.toolCache = undefined
    this.lists.clear()
    this.crashed = true
    this.state = 'failed'
    this.error = `MCP server "${this.name}" closed the connection`
  }

  private async reset(): Promise<void> {
    const client = this.client
    this.client = undefined
    this.toolCache = undefined
    this.lists.clear()
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

  private listAll<T>(client: Client, what: string, page: PageReader<T>): Promise<T[]> {
    const timeoutMs = this.options.server.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS
    return listPages(client, page, {hint: this.hint(), server: this.name, timeoutMs, what})
  }

  private hint(): string {
    if (this.stdio?.exited) return `its process exited (${this.stdio.exited}); its log is ${this.logFile}`
    return this.options.server.transport.type === 'stdio'
      ? `its log is ${this.logFile}; raise mcp_servers.${this.name}.startup_timeout_ms if it is only slow`
      : `check that ${this.options.server.transport.url.origin} is up; raise mcp_servers.${this.name}.startup_timeout_ms if it is only slow`
  }

  private failure(error: unknown, doing: string): McpServerError {
    return connectionFailure(error, doing, {
      hint: this.hint(),
      server: this.name,
      transport: this.options.server.transport,
    })
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
