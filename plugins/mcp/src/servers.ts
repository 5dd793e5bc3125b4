import type {ToolDefinition} from '@hanzo-dev/sdk'

import type {ClientRequests} from './client-requests.js'
import {type ConnectionState, McpConnection, McpServerError} from './connection.js'
import {mcpToolDefinitions, type ToolNaming} from './mcp-tools.js'
import {readResourceTool} from './resource-tool.js'
import {ResourceSubscriptions} from './resource-subscriptions.js'
import type {McpServerEntry} from './server-config.js'
import type {ToolPins} from './tool-pins.js'

export interface ServerStatus {
  name: string
  state: ConnectionState
  /** How many tools it offers, once connected. */
  tools?: number
  transport: 'stdio' | 'http'
  /** Which HTTP protocol answered. */
  http?: 'streamable-http' | 'sse'
  error?: string
  hint?: string
  /** What it logged (`notifications/message`): how many of each level, the last few. */
  log?: {counts: Record<string, number>; last: string[]}
}

export interface McpServersOptions {
  cwd: string
  dataDir: string
  env: Readonly<Record<string, string | undefined>>
  naming: ToolNaming
  pins: ToolPins
  newBackoff?: () => {nextDelay(): number; reset(): void}
  /** Where an HTTP server's OAuth access token comes from (`mcp login`). */
  bearer?: (server: McpServerEntry) => (() => Promise<string | undefined>) | undefined
  /** Reported once per problem: a server that fails, a tool left out. */
  warn: (message: string) => void
  /** What each connection answers of its server's requests (elicitation, sampling). */
  clientRequests?: ClientRequests
}

/**
 * The configured servers of one session: all started at once, each on its own (one that fails
 * or is slow does not hold the others), their tools collected as they arrive and again when a
 * server says they changed. `onChange` hears every new tool list.
 */
export class McpServers {
  readonly connections: McpConnection[]
  private readonly toolsOf = new Map<string, ToolDefinition[]>()
  private readonly failures = new Map<string, McpServerError>()
  private readonly listeners: ((tools: ToolDefinition[]) => void)[] = []
  /** How many tool lists the listeners have been sent. */
  changes = 0
  /** The re-listing a server asked for (list_changed), while it is under way. */
  private readonly refreshing = new Map<string, Promise<void>>()
  /** The resources read in this session that the servers say when they change. */
  readonly subscriptions = new ResourceSubscriptions()
  private readonly readResource = readResourceTool(
    () => this.withResources(),
    (connection, uri) => this.subscriptions.follow(connection, uri),
  )

  constructor(
    private readonly entries: readonly McpServerEntry[],
    private readonly options: McpServersOptions,
  ) {
    this.connections = entries.map(
      (server, i) =>
        new McpConnection({
          backoff: options.newBackoff?.(),
          bearer: options.bearer?.(server),
          clientRequests: options.clientRequests,
          cwd: options.cwd,
          dataDir: options.dataDir,
          env: options.env,
          onResourceUpdated: (uri) => void this.subscriptions.updated(this.connections[i], uri),
          onToolsChanged: () => this.refresh(server.name),
          roots: () => [options.cwd],
          server,
        }),
    )
  }

  /** Starts every server; settles when each has connected and listed its tools, or failed. */
  start(): Promise<void> {
    return Promise.all(this.entries.map((server) => this.load(server.name))).then(() => {})
  }

  /** One server's tools, as listings show them. */
  toolsFrom(
    name: string,
  ): {name: string; description: string; mutating: boolean; inputSchema: Record<string, unknown>}[] {
    return (this.toolsOf.get(name) ?? []).map(({description, inputSchema, mutating, name}) => ({
      description,
      inputSchema,
      mutating,
      name,
    }))
  }

  /** The servers' tools in their order, then {@link readResourceTool} once a connected server has resources. */
  tools(): ToolDefinition[] {
    const tools = this.entries.flatMap((server) => this.toolsOf.get(server.name) ?? [])
    return this.withResources().length > 0 ? [...tools, this.readResource] : tools
  }

  /** The connected servers that offer resources. */
  withResources(): McpConnection[] {
    return this.connections.filter((c) => c.serverCapabilities?.resources)
  }

  /**
   * `since`: the {@link changes} count the caller last saw; a change made before the listener
   * was attached (a server up between the session's answer and its watching) is heard at once.
   */
  onChange(listener: (tools: ToolDefinition[]) => void, since?: number): void {
    this.listeners.push(listener)
    if (since !== undefined && since !== this.changes) listener(this.tools())
  }

  connection(name: string): McpConnection | undefined {
    return this.connections.find((c) => c.name === name)
  }

  /**
   * How long each connected server took to answer `ping`, in milliseconds, by name; a string
   * says why one did not answer. A server not connected is not asked (nothing starts for it).
   */
  async pings(signal?: AbortSignal): Promise<Map<string, number | string>> {
    const connected = this.connections.filter((c) => c.state === 'connected')
    const answers = await Promise.all(
      connected.map(async (c) =>
        c.ping(signal).catch((error: unknown) => (error instanceof Error ? error.message : String(error))),
      ),
    )
    return new Map(connected.map((c, i) => [c.name, answers[i]]))
  }

  status(): ServerStatus[] {
    return this.connections.map((connection, i) => {
      const server = this.entries[i]
      const failure = this.failures.get(server.name)
      const tools = this.toolsOf.get(server.name)
      return {
        name: server.name,
        state: connection.state,
        transport: server.transport.type,
        ...(connection.httpTransport ? {http: connection.httpTransport} : {}),
        ...(tools && connection.state === 'connected' ? {tools: tools.length} : {}),
        ...(connection.log.last.length > 0
          ? {log: {counts: Object.fromEntries(connection.log.counts), last: [...connection.log.last]}}
          : {}),
        ...(failure ? {error: failure.message, ...(failure.hint ? {hint: failure.hint} : {})} : {}),
      }
    })
  }

  /** Pins the tools server `name` lists now, as running each would: the ones it changed run unasked again. */
  async approve(name: string): Promise<string[]> {
    const listed = await this.connection(name)!.tools()
    for (const tool of listed) await this.options.pins.pin(name, tool)
    return listed.map((tool) => tool.name)
  }

  async close(): Promise<void> {
    await this.subscriptions.close()
    await Promise.all(this.connections.map((c) => c.close()))
  }

  /**
   * A server that changes its tools while a call runs (an `add_tool` tool) says so before it
   * answers: the call's result waits for the new list, so the very next model request has it.
   */
  private settled(name: string): Promise<void> {
    return this.refreshing.get(name) ?? Promise.resolve()
  }

  private refresh(name: string): void {
    const done = this.load(name)
    this.refreshing.set(name, done)
    void done.finally(() => {
      if (this.refreshing.get(name) === done) this.refreshing.delete(name)
    })
  }

  private async load(name: string): Promise<void> {
    const connection = this.connection(name)!
    const server = this.entries.find((s) => s.name === name)!
    try {
      const listed = await connection.tools()
      const {tools, warnings} = mcpToolDefinitions(
        connection,
        server,
        listed,
        this.options.naming,
        this.options.pins,
        () => this.settled(name),
      )
      for (const warning of warnings) this.options.warn(warning)
      this.failures.delete(name)
      this.toolsOf.set(name, tools)
    } catch (error) {
      if (connection.state === 'closed') return
      const failure =
        error instanceof McpServerError
          ? error
          : new McpServerError(name, `MCP server "${name}": ${error instanceof Error ? error.message : String(error)}`)
      this.failures.set(name, failure)
      this.toolsOf.delete(name)
      this.options.warn(failure.hint ? `${failure.message} (${failure.hint})` : failure.message)
    }

    this.changes++
    const all = this.tools()
    for (const listener of this.listeners) listener(all)
  }
}
