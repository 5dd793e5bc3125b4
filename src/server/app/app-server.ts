import {stat} from 'node:fs/promises'
import {isAbsolute} from 'node:path'
import {type AgentSession, canonicalize, isInside, type Prompter, type SessionPermissionMode} from '@hanzo-dev/sdk'

import {applyRewind, planRewind} from '../../adapters/checkpoints/rewind.js'
import type {CheckpointStore} from '../../adapters/checkpoints/store.js'
import {loadPrices} from '../../adapters/prices.js'
import type {SessionStore} from '../../adapters/session-store.js'
import {redactConfig} from '../../core/config/redact.js'
import type {LoadedConfig} from '../../core/config/types.js'
import {isUserError} from '../../core/errors.js'
import {
  classifyMessage,
  type JsonRpcMessage,
  type JsonRpcResponse,
  RPC_ERRORS,
  RpcError,
  rpcError,
  rpcResult,
} from '../../core/protocol/json-rpc.js'
import {LiveSession} from './live-session.js'
import {
  CLIENT_METHODS,
  type ClientMethod,
  type ParamsOf,
  parseParams,
  PROTOCOL_VERSION,
  type ResultOf,
  type SessionSummary,
} from './protocol.js'
import {RpcConnection} from './rpc-connection.js'
import type {SavedSessions} from './saved-sessions.js'
import {rewindResult} from './session-rewind.js'
import type {SessionOwners} from './session-owners.js'

export interface OpenSessionRequest {
  cwd: string
  model?: string
  permissionMode: SessionPermissionMode
  prompter: Prompter
  /** A saved session's full id. */
  resume?: string
  /** A new session from a copy of `resume`'s conversation. */
  fork?: boolean
}

export interface AppServerOptions {
  version: string
  /** The workspace of a session that names none (inside a root). */
  cwd: string
  /**
   * The operator's workspace roots, canonical: a client's `cwd` must be inside one. The client
   * does not choose where its sessions' tools reach; the person who started the server does.
   */
  roots: readonly string[]
  /** How long a permission/request waits for the client's answer before it is a deny. */
  permissionTimeoutMs: number
  /** openAgentSession with the server's fixed options (the CLI config, --fake-model). */
  openSession(request: OpenSessionRequest): Promise<AgentSession>
  settings(cwd: string): Promise<LoadedConfig>
  saved: SavedSessions
  /** The stores `sessions rewind` uses, for session/rewind. */
  stores: {sessions: SessionStore; checkpoints: CheckpointStore}
  owners: SessionOwners
  /** A bug's details (stack), for stderr: the client gets only its message. */
  log(message: string): void
}

type Handler<M extends ClientMethod> = (connection: RpcConnection, params: ParamsOf<M>) => Promise<ResultOf<M>>

const DEFAULT_LIST_LIMIT = 50

/**
 * The JSON-RPC methods of `hanzo-dev app-server` (docs/app-server.md), whatever the transport.
 * Every session is an agent session from openAgentSession, tagged with the owner of the
 * connection that started or resumed it: a connection with an owner sees and touches only its owner's
 * sessions (-32001 otherwise); one without (stdio, local HTTP) sees them all. A session stays
 * open while a connection that uses it does (its plugin servers, LSP and MCP, with it); after
 * that, session/resume opens it again from the saved session.
 */
export class AppServer {
  private readonly live = new Map<string, LiveSession>()
  /** Sessions closed for a rewind, by id, until they are open again. */
  private readonly rewinding = new Set<string>()
  /** Sessions closing after their last connection went: the server's close waits for them. */
  private readonly closing = new Set<Promise<void>>()
  private readonly handlers: {[M in ClientMethod]: Handler<M>}

  constructor(private readonly options: AppServerOptions) {
    this.handlers = {
      'config/read': async (_c, {cwd}) => {
        const loaded = await this.options.settings(await this.workspace(cwd))
        return {config: redactConfig(loaded.config), projectRoot: loaded.projectRoot}
      },
      initialize: async () => ({
        methods: Object.keys(CLIENT_METHODS),
        protocolVersion: PROTOCOL_VERSION,
        serverInfo: {name: 'hanzo-dev', version: this.options.version},
      }),
      'session/list': async (connection, {limit}) => this.list(connection, limit ?? DEFAULT_LIST_LIMIT),
      'session/read': async (connection, {sessionId}) => {
        const live = this.liveSession(sessionId)
        if (live) this.checkOwner(connection, live.session.id, sessionId)
        const stored = await this.options.saved.find(live?.session.id ?? sessionId).catch((error: unknown) => {
          // Open but not saved yet (no turn has run): an empty conversation.
          if (live && error instanceof RpcError) return undefined
          throw error
        })
        if (stored) this.checkOwner(connection, stored.id, sessionId)
        const {pricing} = (await this.options.settings(this.options.cwd)).config
        if (!stored) return {messages: [], session: unsavedSummary(live!)}
        return this.options.saved.read(stored, await loadPrices(pricing), this.live.has(stored.id))
      },
      'session/resume': async (connection, params) => {
        const live = this.liveSession(params.sessionId)
        // A fork copies the saved conversation, live or not: a live session's is saved after each turn.
        if (live && !params.fork) {
          this.checkOwner(connection, live.session.id, params.sessionId)
          this.use(connection, live)
          return live.info()
        }

        const stored = await this.options.saved.find(params.sessionId)
        this.checkOwner(connection, stored.id, params.sessionId)
        if (!params.fork) this.notRewinding(stored.id)
        const cwd = params.cwd ?? (await this.existingDir(await this.options.saved.projectRoot(stored)))
        const {fork, ...options} = params
        return this.open(connection, {...options, cwd}, stored.id, fork)
      },
      'session/rewind': async (connection, params) => this.rewind(connection, params),
      'session/start': async (connection, params) => this.open(connection, params),
      'tools/list': async (connection, {sessionId}) => ({
        // The protocol's tool has no source (its schema allows no other field).
        tools: this.running(connection, sessionId)
          .session.toolSpecs()
          .map(({source: _source, ...tool}) => tool),
      }),
      'turn/interrupt': async (connection, {sessionId}) => ({
        interrupted: this.running(connection, sessionId).interrupt(),
      }),
      'turn/start': async (connection, {input, sessionId}) => {
        const live = this.running(connection, sessionId)
        if (live.busy)
          throw new RpcError(
            RPC_ERRORS.sessionBusy,
            `Session ${live.session.id} is running a turn: wait for turn/completed, or turn/interrupt it`,
          )
        this.use(connection, live)
        return {turnId: live.startTurn(connection, input)}
      },
    }
  }

  /** A new client: `deliver` carries server -> client messages to it. */
  connect(id: string, deliver: (message: JsonRpcMessage) => void, owner?: string): RpcConnection {
    return new RpcConnection(id, deliver, owner)
  }

  /** One message from a client: the response to send back, or undefined (a notification, a response). */
  async handle(connection: RpcConnection, value: unknown): Promise<JsonRpcResponse | undefined> {
    const classified = classifyMessage(value)
    switch (classified.kind) {
      case 'invalid': {
        return rpcError(classified.id, RPC_ERRORS.invalidRequest, `Invalid request: ${classified.reason}`)
      }

      case 'notification': {
        return undefined
      }

      case 'response': {
        connection.receiveResponse(classified.message)
        return undefined
      }

      case 'request': {
        const {id, method, params} = classified.message
        if (!Object.hasOwn(CLIENT_METHODS, method))
          return rpcError(
            id,
            RPC_ERRORS.methodNotFound,
            `Unknown method ${method}: the methods are ${Object.keys(CLIENT_METHODS).join(', ')}`,
          )
        const parsed = parseParams(method as ClientMethod, params)
        if (!parsed.ok) return rpcError(id, RPC_ERRORS.invalidParams, parsed.message)
        try {
          const handler = this.handlers[method as ClientMethod] as Handler<ClientMethod>
          return rpcResult(id, await handler(connection, parsed.value))
        } catch (error) {
          return this.errorResponse(id, method, error)
        }
      }
    }
  }

  /** Interrupts every turn and closes every session (their `stop` hooks run, transcripts close). */
  async close(): Promise<void> {
    const sessions = [...this.live.values()]
    this.live.clear()
    await Promise.all([...sessions.map((live) => live.close()), ...this.closing])
  }

  private async open(connection: RpcConnection, params: ParamsOf<'session/start'>, resume?: string, fork?: boolean) {
    const permissionMode = params.permissionMode ?? 'prompt'
    const live = new LiveSession(permissionMode, this.options.permissionTimeoutMs, params.model)
    const session = await this.options.openSession({
      cwd: await this.workspace(params.cwd),
      model: params.model,
      permissionMode,
      prompter: live.prompter,
      resume,
      fork,
    })
    live.attach(session)
    this.live.set(session.id, live)
    this.use(connection, live)
    // Tagged with the owner that started or resumed it; a resumed session's tag was checked before it opened.
    if (connection.owner !== undefined && this.options.owners.get(session.id) === undefined)
      await this.options.owners.set(session.id, connection.owner)
    return live.info()
  }

  /**
   * Rewinds a saved session as `sessions rewind` does. One open here is closed first and opened
   * again after (as session/resume would), so its next turn carries on from the cut history and
   * its recorder does not write over what came back; its connections keep using it.
   */
  private async rewind(connection: RpcConnection, params: ParamsOf<'session/rewind'>) {
    const id = this.liveSession(params.sessionId)?.session.id ?? (await this.options.saved.find(params.sessionId)).id
    this.checkOwner(connection, id, params.sessionId)
    const what = {code: params.code ?? true, conversation: params.conversation ?? true}
    if (!what.code && !what.conversation)
      throw new RpcError(
        RPC_ERRORS.invalidParams,
        'Invalid params for session/rewind: code and conversation are both false, so there is nothing to rewind',
      )
    const plan = await planRewind(this.options.stores, id, params.to)
    if (params.dryRun) return rewindResult(plan, what)
    const open = this.live.get(id)
    if (open?.busy)
      throw new RpcError(
        RPC_ERRORS.sessionBusy,
        `Session ${id} is running a turn: wait for turn/completed, or turn/interrupt it, then rewind`,
      )
    if (open) {
      this.live.delete(id)
      this.rewinding.add(id)
    }

    try {
      await open?.close()
      const done = await applyRewind(this.options.stores, plan, what, (message) =>
        this.options.log(`Warning: ${message}`),
      )
      return rewindResult(plan, what, done)
    } finally {
      if (open) await this.reopen(open).finally(() => this.rewinding.delete(id))
    }
  }

  /** Opens a closed live session again from its saved session, for the connections that used it. */
  private async reopen(closed: LiveSession): Promise<void> {
    const {cwd, id} = closed.session
    const live = new LiveSession(closed.permissionMode, this.options.permissionTimeoutMs, closed.model)
    live.attach(
      await this.options.openSession({
        cwd,
        model: closed.model,
        permissionMode: closed.permissionMode,
        prompter: live.prompter,
        resume: id,
      }),
    )
    this.live.set(id, live)
    for (const connection of closed.connections) this.use(connection, live)
  }

  /** The connection uses the session: it stays open at least as long as the connection does. */
  private use(connection: RpcConnection, live: LiveSession): void {
    if (live.connections.has(connection)) return
    live.connections.add(connection)
    connection.onClose(() => {
      live.connections.delete(connection)
      if (live.connections.size > 0 || this.live.get(live.session.id) !== live) return
      this.live.delete(live.session.id)
      const closed = live
        .close()
        .catch((error: unknown) =>
          this.options.log(
            `app-server: closing session ${live.session.id} failed: ${error instanceof Error ? error.message : String(error)}`,
          ),
        )
      this.closing.add(closed)
      void closed.finally(() => this.closing.delete(closed))
    })
  }

  private async list(connection: RpcConnection, limit: number): Promise<{sessions: SessionSummary[]}> {
    const {pricing} = (await this.options.settings(this.options.cwd)).config
    const visible = (id: string) => connection.owner === undefined || this.options.owners.get(id) === connection.owner
    const saved = await this.options.saved.list({
      include: visible,
      isLive: (id) => this.live.has(id),
      limit,
      prices: await loadPrices(pricing),
    })
    // Open but not saved yet (no turn ran): listed too, first (they are the newest).
    const unsaved = [...this.live.values()]
      .filter((live) => visible(live.session.id) && !saved.some((s) => s.sessionId === live.session.id))
      .map((live) => unsavedSummary(live))
    return {sessions: [...unsaved, ...saved].slice(0, limit)}
  }

  /** A live session by its id or a unique start of it. */
  private liveSession(id: string): LiveSession | undefined {
    const exact = this.live.get(id)
    if (exact) return exact
    const matches = [...this.live.values()].filter((live) => live.session.id.startsWith(id.toLowerCase()))
    return matches.length === 1 ? matches[0] : undefined
  }

  /** Refuses a session closed for a rewind: opened meanwhile, it would be a second copy of it. */
  private notRewinding(id: string): void {
    if ([...this.rewinding].some((rewound) => rewound.startsWith(id.toLowerCase())))
      throw new RpcError(
        RPC_ERRORS.sessionBusy,
        `Session ${id} is being rewound: try again once session/rewind answers`,
      )
  }

  /** A session open in this server, which the connection may use. */
  private running(connection: RpcConnection, id: string): LiveSession {
    const live = this.liveSession(id)
    if (!live) this.notRewinding(id)
    if (!live)
      throw new RpcError(
        RPC_ERRORS.unknownSession,
        `Session ${id} is not open in this server: session/start a new one, or session/resume a saved one`,
      )
    this.checkOwner(connection, live.session.id, id)
    return live
  }

  /**
   * A connection with an owner uses its owner's sessions only. A session without an owner is the
   * local user's (started over stdio or local HTTP, or by `hanzo-dev run`): a web user behind the
   * bridge must not read or take over the transcripts on the machine it drives. The error names
   * the session as the client did: a prefix never reveals the rest of another owner's id.
   */
  private checkOwner(connection: RpcConnection, id: string, asked: string): void {
    if (connection.owner === undefined) return
    if (this.options.owners.get(id) !== connection.owner)
      throw new RpcError(RPC_ERRORS.otherOwner, `session ${asked} belongs to another owner`)
  }

  /** A client's `cwd`, canonical, checked to be a directory inside one of the server's roots. */
  private async workspace(cwd: string | undefined): Promise<string> {
    if (cwd === undefined) return this.options.cwd
    if (!isAbsolute(cwd))
      throw new RpcError(RPC_ERRORS.invalidParams, `Invalid params: cwd must be an absolute path (got ${cwd})`)
    if (!(await stat(cwd).catch(() => undefined))?.isDirectory())
      throw new RpcError(RPC_ERRORS.invalidParams, `Invalid params: cwd ${cwd} is not a directory`)
    const canonical = await canonicalize(cwd)
    const {roots} = this.options
    if (!roots.some((root) => isInside(root, canonical))) {
      const shown = canonical === cwd ? cwd : `${cwd} (${canonical})`
      throw new RpcError(
        RPC_ERRORS.invalidParams,
        `Invalid params: cwd ${shown} is outside the server's workspaces (${roots.join(', ')}); whoever started the server chooses them with --workspace`,
        {workspaces: roots},
      )
    }

    return canonical
  }

  /** A resumed session's project, when it is still there; else the server's directory. */
  private async existingDir(path: string): Promise<string> {
    return (await stat(path).catch(() => undefined))?.isDirectory() ? path : this.options.cwd
  }

  private errorResponse(id: string | number, method: string, error: unknown): JsonRpcResponse {
    if (error instanceof RpcError) return rpcError(id, error.code, error.message, error.data)
    // A user error (no model key, a bad setting, a wrong session id): its message and hint, no stack.
    if (isUserError(error)) {
      const {hint} = error
      return rpcError(id, RPC_ERRORS.serverError, error.message, hint ? {hint} : undefined)
    }

    this.options.log(
      `app-server: ${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    )
    return rpcError(
      id,
      RPC_ERRORS.internalError,
      `Internal error in ${method}: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}

function unsavedSummary(live: LiveSession): SessionSummary {
  const {cwd, id, model} = live.session
  return {
    live: true,
    model,
    projectRoot: cwd,
    runs: 0,
    sessionId: id,
    turns: 0,
    usage: {inputTokens: 0, outputTokens: 0},
  }
}
