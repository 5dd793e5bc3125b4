import {listSessions} from '../../adapters/session-listing.js'
import type {SessionStore, StoredSession} from '../../adapters/session-store.js'
import {isUserError} from '../../core/errors.js'
import {summarizeImages} from '../../core/agent/image-summary.js'
import {RPC_ERRORS, RpcError} from '../../core/protocol/json-rpc.js'
import type {ListedSession} from '../../core/sessions/render.js'
import {summarize} from '../../core/sessions/summary.js'
import type {Prices} from '../../core/sessions/usage.js'
import {protocolUsage, type SessionSummary} from './protocol.js'

/**
 * The saved sessions as the protocol shows them (session/list, session/read), read with the
 * same store and summaries as `hanzo-dev sessions list` and `sessions show`.
 */
export class SavedSessions {
  constructor(
    private readonly store: SessionStore,
    private readonly warn: (message: string) => void,
  ) {}

  /** Newest first, every project's; only those `include` accepts. */
  async list(options: {
    limit: number
    prices: Prices
    include(id: string): boolean
    isLive(id: string): boolean
  }): Promise<SessionSummary[]> {
    const {include, isLive, limit, prices} = options
    const listed = await listSessions(this.store, {include, limit, prices, warn: this.warn})
    return listed.map((session) => protocolSummary(session, isLive(session.id)))
  }

  /** The saved session with this id (or unique start of one); -32002 when none, or several, have it. */
  async find(id: string): Promise<StoredSession> {
    return this.store.find(id).catch((error: unknown) => {
      if (isUserError(error)) throw new RpcError(RPC_ERRORS.unknownSession, error.message)
      throw error
    })
  }

  /** The summary and the conversation a resume would carry on. */
  async read(stored: StoredSession, prices: Prices, live: boolean) {
    const loaded = await this.store.load(stored.path)
    const summary = protocolSummary(
      {...summarize(loaded.transcript, prices), updated_at: stored.modified.toISOString()},
      live,
    )
    // Reasoning blocks are the provider's, signed for it: not part of what a client shows; nor
    // an image's bytes, which the saved session keeps for the model.
    const messages = loaded.history.map((message) => {
      if (message.role === 'assistant')
        return {content: message.content, role: message.role, toolCalls: message.toolCalls}
      if (message.role === 'system') return message
      const {images, ...rest} = message
      return {...rest, ...summarizeImages(images)}
    })
    return {messages, session: summary}
  }

  /** The project root a saved session was recorded in. */
  async projectRoot(stored: StoredSession): Promise<string> {
    return (await this.store.read(stored.path)).header.project_root
  }
}

function protocolSummary(session: ListedSession, live: boolean): SessionSummary {
  return {
    createdAt: session.created_at,
    live,
    model: session.model,
    projectRoot: session.project_root,
    runs: session.runs,
    sessionId: session.id,
    turns: session.turns,
    updatedAt: session.updated_at,
    usage: protocolUsage(session.usage),
    ...(session.first_prompt === undefined ? {} : {firstPrompt: session.first_prompt}),
    ...(session.last_stop === undefined ? {} : {lastStop: session.last_stop}),
  }
}
