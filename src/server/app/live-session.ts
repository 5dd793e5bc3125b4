import {randomUUID} from 'node:crypto'
import type {AgentSession, PermissionDecision, Prompter, SessionPermissionMode} from '@hanzo-dev/sdk'

import {forwardElicitation} from './elicitation-request.js'
import {parsePermissionAnswer, protocolUsage, type SessionInfo} from './protocol.js'
import type {RpcConnection} from './rpc-connection.js'
import {type Notify, TurnItems} from './turn-items.js'

interface RunningTurn {
  id: string
  connection: RpcConnection
  controller: AbortController
}

/**
 * An agent session open in the app server: the session (opened by openAgentSession, so the
 * CLI's policy, hooks, sandbox and recording apply), the connections using it, and its turn in
 * progress. Turns run one at a time; each streams its items to every connection using the
 * session (a second window on the same conversation sees it too), and the connection that
 * started it answers its permission requests.
 */
export class LiveSession {
  private turn?: RunningTurn
  /** The running turn's whole course, notifications included: what close waits for. */
  private running?: Promise<void>
  /** The connections that started, resumed or ran a turn in it: when the last one closes, so does the session. */
  readonly connections = new Set<RpcConnection>()
  private opened?: AgentSession

  constructor(
    readonly permissionMode: SessionPermissionMode,
    private readonly permissionTimeoutMs: number,
    /** The model the client asked for (undefined: the setting's), for opening it again. */
    readonly model?: string,
  ) {}

  /** Set once openAgentSession returns (the prompter exists before the session does). */
  attach(session: AgentSession): void {
    this.opened = session
  }

  get session(): AgentSession {
    if (!this.opened) throw new Error('the session is still opening')
    return this.opened
  }

  get busy(): boolean {
    return this.turn !== undefined
  }

  info(): SessionInfo {
    const {cwd, id, model, tools} = this.session
    return {cwd, model, permissionMode: this.permissionMode, sessionId: id, tools: [...tools]}
  }

  /**
   * Asks the turn's client with permission/request. No answer in time, an error answer, one that
   * is not a decision, an interrupted turn or a closed connection: deny, saying which.
   */
  readonly prompter: Prompter = {
    // An MCP server's question, as long as a permission question may wait.
    elicit: (request) => forwardElicitation(this.turn, this.session.id, request, this.permissionTimeoutMs),
    requestPermission: async (toolName, input, context) => {
      const {turn} = this
      if (!turn) return {reason: 'no client turn is running to ask', type: 'deny'}
      const advice = context?.advice as {kind?: string; rules?: string[]} | undefined
      const params = {
        input,
        sessionId: this.session.id,
        toolName,
        turnId: turn.id,
        ...(context?.notice === undefined ? {} : {notice: context.notice}),
        ...(context?.title ? {title: context.title} : {}),
        ...(advice?.kind === 'rules' && advice.rules ? {rules: advice.rules} : {}),
      }
      const interrupted = new Promise<'interrupted'>((resolve) => {
        if (turn.controller.signal.aborted) resolve('interrupted')
        turn.controller.signal.addEventListener('abort', () => resolve('interrupted'), {once: true})
      })
      const answer = await Promise.race([
        turn.connection.request('permission/request', params, this.permissionTimeoutMs),
        interrupted,
      ])
      return decision(answer, this.permissionTimeoutMs)
    },
  }

  /** Starts a turn in the background and returns its id; `connection` answers its permission requests. */
  startTurn(connection: RpcConnection, input: string): string {
    const turn: RunningTurn = {connection, controller: new AbortController(), id: randomUUID()}
    this.turn = turn
    // On the next tick: turn/start's answer (the turn id) goes out before the turn's first notification.
    this.running = new Promise((resolve) => setImmediate(() => void this.runTurn(turn, input).finally(resolve)))
    return turn.id
  }

  /** Cancels the turn in progress (it ends with turn/completed, stop reason cancelled); false when none runs. */
  interrupt(): boolean {
    if (!this.turn) return false
    this.turn.controller.abort()
    return true
  }

  /** Interrupts the turn in progress, waits for its end, then closes the session (its `stop` hooks run, its transcript closes). */
  async close(): Promise<void> {
    this.interrupt()
    await this.running
    await this.opened?.close()
  }

  /** Runs the turn to its end: a model error is an `error` notification and stop reason `error`, never a crash. */
  private async runTurn(turn: RunningTurn, input: string): Promise<void> {
    const notify: Notify = (method, params) => {
      for (const connection of this.connections) connection.notify(method, params)
    }
    const ids = {sessionId: this.session.id, turnId: turn.id}
    const items = new TurnItems(notify, ids)
    const stopOnClose = turn.connection.onClose(() => turn.controller.abort())
    notify('turn/started', ids)
    try {
      const result = await this.session.run(input, {
        onEvent: (event) => items.onEvent(event),
        signal: turn.controller.signal,
      })
      this.endTurn(turn, stopOnClose)
      notify('turn/completed', {
        ...ids,
        finalOutput: result.finalOutput,
        stopReason: result.stop,
        usage: protocolUsage(result.usageReport.run),
      })
    } catch (error) {
      this.endTurn(turn, stopOnClose)
      const {hint, message} = error as {message?: string; hint?: string}
      notify('error', {...ids, message: message ?? String(error), ...(hint ? {hint} : {})})
      notify('turn/completed', {...ids, finalOutput: '', stopReason: 'error', usage: items.usage})
    }
  }

  /** The turn is over before turn/completed goes out: a client may start the next one at once. */
  private endTurn(turn: RunningTurn, stopOnClose: () => void): void {
    stopOnClose()
    if (this.turn === turn) this.turn = undefined
  }
}

function decision(
  answer: Awaited<ReturnType<RpcConnection['request']>> | 'interrupted',
  timeoutMs: number,
): PermissionDecision {
  if (answer === 'interrupted') return {reason: 'the turn was interrupted', type: 'deny'}
  if (answer.kind === 'timeout')
    return {
      reason: `the client did not answer the permission request within ${Math.round(timeoutMs / 1000)} s`,
      type: 'deny',
    }
  if (answer.kind === 'closed') return {reason: 'the client disconnected', type: 'deny'}
  if (answer.kind === 'error') return {reason: `the client answered with an error: ${answer.message}`, type: 'deny'}
  const parsed = parsePermissionAnswer(answer.result)
  if (!parsed) return {reason: "the client's answer was not a decision (allow, allow_session or deny)", type: 'deny'}
  if (parsed.decision === 'deny') return {reason: parsed.reason ?? 'the user denied it', type: 'deny'}
  return {scope: parsed.decision === 'allow_session' ? 'session' : 'once', type: 'allow'}
}
