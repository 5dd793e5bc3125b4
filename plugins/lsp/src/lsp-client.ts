import {type ChildProcess, spawn} from 'node:child_process'
import {basename} from 'node:path'
import {setTimeout as delay} from 'node:timers/promises'
import {fileURLToPath} from 'node:url'

import {terminateGroup} from '@hanzo-dev/sdk'
import type {MessageConnection} from 'vscode-jsonrpc/node'
import type {
  ConfigurationParams,
  Definition,
  DefinitionLink,
  Diagnostic,
  DocumentDiagnosticReport,
  DocumentSymbol,
  Hover,
  InitializeParams,
  Location,
  Position,
  PublishDiagnosticsParams,
  ServerCapabilities,
  SymbolInformation,
} from 'vscode-languageserver-protocol'

import {DiagnosticsBoard} from './diagnostics-board.js'

export interface LspClientOptions {
  args?: readonly string[]
  env?: Readonly<Record<string, string | undefined>>
  /** How the server must start (the sandbox's bubblewrap or unshare): the argv to spawn for its argv and working directory. */
  wrap?: (argv: string[], cwd: string) => string[]
  /** How long the server may take to answer `initialize` (a server that never does is given up on). */
  initializeTimeoutMs?: number
  /** How long other requests may take. */
  requestTimeoutMs?: number
  /** The most `diagnostics()` waits for a server to publish and settle (`lsp.diagnostics_timeout_ms`). */
  diagnosticsTimeoutMs?: number
  /**
   * The wait for a server's very first diagnostics, when it loads the project (tsserver takes
   * 1.5-4 s on a busy machine): at least this, whatever `diagnosticsTimeoutMs` says.
   */
  coldStartMs?: number
  /** How long after the last publish the diagnostics count as settled. */
  settleMs?: number
  /** Between `exit` and the kill of the server's process group. */
  graceMs?: number
}

/** A server problem the caller reports to the user: failed to start, crashed, timed out. */
export class LspError extends Error {
  override name = 'LspError'
}

/** A request the server did not answer in time. */
export class LspTimeoutError extends LspError {
  override name = 'LspTimeoutError'
}

/**
 * A document's diagnostics as the server reported them after its last change, or, when it
 * reported nothing within the wait, who was waited for and how long: never an empty list in its place.
 */
export type DiagnosticsReport =
  {complete: true; items: Diagnostic[]} | {complete: false; server: string; waitedMs: number}

const STDERR_TAIL = 2000
const live = new Set<number>()
let exitHook = false

/**
 * One language server over stdio (HIP-301 §8). Positions are the wire's: 0-based lines and UTF-16
 * columns; converting to what people read is the caller's business. The server runs in its own
 * process group, so `shutdown()` also ends what it started (tsserver under typescript-language-server).
 */
export class LspClient {
  capabilities: ServerCapabilities = {}
  private child?: ChildProcess
  private connection?: MessageConnection
  private readonly board = new DiagnosticsBoard()
  private readonly texts = new Map<string, {text: string; version: number}>()
  private stderrTail = ''
  private exited?: string
  private gone?: Promise<unknown>

  constructor(
    readonly command: string,
    readonly rootUri: string,
    private readonly options: LspClientOptions = {},
  ) {}

  /** Spawns the server and runs the `initialize` handshake; rejects with an {@link LspError} saying why it could not. */
  async start(): Promise<void> {
    const rpc = await import('vscode-jsonrpc/node')
    const cwd = fileURLToPath(this.rootUri)
    const argv = [this.command, ...(this.options.args ?? [])]
    const [file, ...args] = this.options.wrap?.(argv, cwd) ?? argv
    const child = spawn(file, args, {
      cwd,
      detached: true,
      env: this.options.env as NodeJS.ProcessEnv | undefined,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    this.child = child
    this.gone = new Promise((resolve) => child.once('exit', resolve).once('error', resolve))
    const failed = new Promise<never>((_, reject) => {
      child.once('error', (error: NodeJS.ErrnoException) => {
        this.exited =
          error.code === 'ENOENT' ? `${this.command}: command not found` : `${this.command}: ${error.message}`
        reject(new LspError(this.exited))
      })
      child.once('exit', (code, signal) => {
        if (child.pid !== undefined) live.delete(child.pid)
        this.exited ??= `${this.command} exited (${signal ?? `code ${code}`})${this.stderrTail.trim() ? `: ${lastLine(this.stderrTail)}` : ''}`
        this.board.close()
        reject(new LspError(this.exited))
      })
    })
    failed.catch(() => undefined)
    if (child.pid !== undefined) trackGroup(child.pid)
    child.stderr!.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL)
    })
    // A server that dies leaves a broken pipe behind; the exit handler says what happened.
    child.stdin!.on('error', () => undefined)

    const connection = rpc.createMessageConnection(
      new rpc.StreamMessageReader(child.stdout!),
      new rpc.StreamMessageWriter(child.stdin!),
      {
        error() {},
        info() {},
        log() {},
        warn() {},
      },
    )
    this.connection = connection
    // Servers ask before they work: pyright analyses nothing until its configuration request is answered.
    connection.onRequest('workspace/configuration', (params: ConfigurationParams) => params.items.map(() => ({})))
    connection.onRequest('client/registerCapability', () => null)
    connection.onRequest('client/unregisterCapability', () => null)
    connection.onRequest('window/workDoneProgress/create', () => null)
    connection.onRequest('workspace/workspaceFolders', () => [{name: 'workspace', uri: this.rootUri}])
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) =>
      this.board.publish(params.uri, params.diagnostics),
    )
    connection.onError(() => undefined)
    connection.listen()

    const timeout = this.options.initializeTimeoutMs ?? 15_000
    const result = await Promise.race([
      failed,
      // A confined server has a pid namespace of its own, where this process's id names another
      // process or none: a server that watches its parent by that id would exit. The sandbox's
      // wrapper ends it with this process instead.
      this.request<{capabilities: ServerCapabilities}>(
        'initialize',
        initializeParams(this.rootUri, this.options.wrap ? null : process.pid),
        timeout,
        'did not answer initialize',
      ),
    ]).catch(async (error: unknown) => {
      await this.kill()
      throw error
    })
    this.capabilities = result.capabilities ?? {}
    await connection.sendNotification('initialized', {})
  }

  /** Opens the document, or sends its new text when it is open already (full sync); the same text again is no change. */
  async openDocument(uri: string, languageId: string, text: string): Promise<void> {
    const connection = this.alive()
    const open = this.texts.get(uri)
    if (open?.text === text) return
    const version = (open?.version ?? 0) + 1
    this.texts.set(uri, {text, version})
    this.board.expect(uri)
    await (version === 1
      ? connection.sendNotification('textDocument/didOpen', {textDocument: {languageId, text, uri, version}})
      : connection.sendNotification('textDocument/didChange', {contentChanges: [{text}], textDocument: {uri, version}}))
  }

  /** The server's process id, which is also its process group's; undefined before start(). */
  get pid(): number | undefined {
    return this.child?.pid
  }

  /** Whether the server process is gone (it crashed, or never started). */
  hasExited(): boolean {
    return this.exited !== undefined
  }

  /**
   * The document's diagnostics, hints (severity 4) left out: pulled when the server offers
   * `textDocument/diagnostic`, else the ones it publishes after the last open or change, once no
   * new publish came for `settleMs`. The wait is at most `diagnosticsTimeoutMs`, or `coldStartMs`
   * before the server's first publish; past it the report is incomplete.
   */
  async diagnostics(uri: string): Promise<DiagnosticsReport> {
    const warm = this.board.hasPublished()
    const timeout = Math.max(this.options.diagnosticsTimeoutMs ?? 3000, warm ? 0 : (this.options.coldStartMs ?? 10_000))
    const items = await (this.capabilities.diagnosticProvider
      ? this.pullDiagnostics(uri, timeout)
      : this.board.settled(uri, {settleMs: this.options.settleMs ?? 300, timeoutMs: timeout}))
    // A server that died while we waited said nothing about the document: its exit says why.
    if (this.exited) throw new LspError(this.exited)
    if (!items) return {complete: false, server: basename(this.command), waitedMs: timeout}
    return {complete: true, items: items.filter((d) => d.severity !== 4)}
  }

  async gotoDefinition(uri: string, position: Position): Promise<Location[]> {
    return toLocations(
      await this.request<Definition | DefinitionLink[] | null>('textDocument/definition', {
        position,
        textDocument: {uri},
      }),
    )
  }

  async findReferences(uri: string, position: Position): Promise<Location[]> {
    return (
      (await this.request<Location[] | null>('textDocument/references', {
        context: {includeDeclaration: true},
        position,
        textDocument: {uri},
      })) ?? []
    )
  }

  async hover(uri: string, position: Position): Promise<Hover | null> {
    return this.request<Hover | null>('textDocument/hover', {position, textDocument: {uri}})
  }

  async documentSymbols(uri: string): Promise<DocumentSymbol[] | SymbolInformation[]> {
    return (
      (await this.request<DocumentSymbol[] | SymbolInformation[] | null>('textDocument/documentSymbol', {
        textDocument: {uri},
      })) ?? []
    )
  }

  /** `shutdown` and `exit`, then the process group is killed after the grace, whatever the server did. */
  async shutdown(): Promise<void> {
    if (this.connection && !this.exited) {
      await this.request('shutdown', null, 1000, 'did not answer shutdown').catch(() => undefined)
      await this.connection.sendNotification('exit').catch(() => undefined)
    }

    await this.kill()
  }

  private async kill(): Promise<void> {
    const {child} = this
    this.connection?.dispose()
    this.connection = undefined
    if (!child?.pid) return
    const grace = this.options.graceMs ?? 1000
    if (child.exitCode === null && child.signalCode === null)
      await Promise.race([new Promise((resolve) => child.once('exit', resolve)), delay(grace)])
    // The server may be gone while what it started is not: the group is ended either way.
    await terminateGroup(child.pid, grace)
    live.delete(child.pid)
  }

  private alive(): MessageConnection {
    if (this.exited) throw new LspError(this.exited)
    if (!this.connection) throw new LspError(`${this.command} is not running`)
    return this.connection
  }

  /** undefined when the server did not answer within `timeoutMs`. */
  private async pullDiagnostics(uri: string, timeoutMs: number): Promise<Diagnostic[] | undefined> {
    try {
      const report = await this.request<DocumentDiagnosticReport>(
        'textDocument/diagnostic',
        {textDocument: {uri}},
        timeoutMs,
      )
      const items = report.kind === 'full' ? report.items : (this.board.latest(uri) ?? [])
      this.board.publish(uri, items)
      return items
    } catch (error) {
      if (error instanceof LspTimeoutError) return undefined
      throw error
    }
  }

  private async request<R>(
    method: string,
    params: unknown,
    timeoutMs = this.options.requestTimeoutMs ?? 10_000,
    late = `did not answer ${method}`,
  ): Promise<R> {
    const connection = this.alive()
    let timer: NodeJS.Timeout | undefined
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LspTimeoutError(`${this.command} ${late} within ${timeoutMs} ms`)), timeoutMs)
    })
    try {
      return await Promise.race([connection.sendRequest<R>(method, params), expired])
    } catch (error) {
      if (error instanceof LspError) throw error
      // A write to a server that just died fails before its exit is seen: the exit says more.
      await Promise.race([this.gone, delay(500)])
      throw new LspError(
        this.exited ?? `${this.command}: ${method} failed: ${error instanceof Error ? error.message : String(error)}`,
      )
    } finally {
      clearTimeout(timer)
    }
  }
}

function initializeParams(rootUri: string, processId: number | null): InitializeParams {
  return {
    capabilities: {
      general: {positionEncodings: ['utf-16']},
      textDocument: {
        definition: {linkSupport: true},
        diagnostic: {dynamicRegistration: false},
        documentSymbol: {hierarchicalDocumentSymbolSupport: true},
        hover: {contentFormat: ['plaintext', 'markdown']},
        publishDiagnostics: {relatedInformation: false},
        references: {},
        synchronization: {didSave: false, dynamicRegistration: false},
      },
      window: {workDoneProgress: true},
      workspace: {configuration: true, workspaceFolders: true},
    },
    clientInfo: {name: 'hanzo-dev'},
    processId,
    rootUri,
    workspaceFolders: [{name: 'workspace', uri: rootUri}],
  }
}

function toLocations(result: Definition | DefinitionLink[] | null): Location[] {
  if (!result) return []
  const list = Array.isArray(result) ? result : [result]
  return list.map((l) => ('targetUri' in l ? {range: l.targetSelectionRange, uri: l.targetUri} : l))
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)!.trim()
}

/** Detached servers do not hear the terminal's Ctrl-C: a CLI that exits without shutdown() still ends them. */
function trackGroup(pid: number): void {
  live.add(pid)
  if (exitHook) return
  exitHook = true
  process.once('exit', () => {
    for (const group of live) {
      try {
        process.kill(-group, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
  })
}
