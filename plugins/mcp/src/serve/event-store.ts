import type {EventStore} from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js'

export interface EventStoreLimits {
  /** Events kept per SSE stream: a client further behind than this cannot resume that stream. */
  perStream: number
  /** Bytes of messages kept across every session: the oldest go first. */
  totalBytes: number
}

/** A served stream's backlog is a handful of calls' answers; a fs_read answer can be large. */
export const DEFAULT_EVENT_LIMITS: EventStoreLimits = {perStream: 200, totalBytes: 16 * 1024 * 1024}

interface Stored {
  session: string
  stream: string
  id: string
  message: JSONRPCMessage
  bytes: number
}

/**
 * What `mcp serve --http` sent on its SSE streams, so a client that lost a stream (or was told to
 * poll) reconnects with Last-Event-ID and gets what it missed (SEP-1699). Bounded, because a long
 * session's notifications would otherwise grow without end: a cursor that fell out of the store is
 * refused (the SDK answers 400) rather than resumed with a silent gap.
 */
export class ServedEvents {
  /** Every event in the order it was stored: the front is what the total cap evicts first. */
  private readonly all = new Map<string, Stored>()
  /** session → stream → event id → event, each in the order stored. */
  private readonly sessions = new Map<string, Map<string, Map<string, Stored>>>()
  private bytes = 0
  private next = 0

  constructor(private readonly limits: EventStoreLimits = DEFAULT_EVENT_LIMITS) {}

  /**
   * The store one session's transport uses: its cursors reach only its own streams. Closed with
   * the session, it forgets the session's events and keeps none of what a late answer sends.
   */
  forSession(session: string): EventStore & {close(): void} {
    let open = true
    return {
      close: () => {
        open = false
        for (const stream of this.sessions.get(session)?.values() ?? [])
          for (const event of stream.values()) this.forget(event)
      },
      getStreamIdForEventId: async (eventId) => this.find(session, eventId)?.stream,
      replayEventsAfter: async (lastEventId, {send}) => {
        const last = this.find(session, lastEventId)
        if (!last) return ''
        let after = false
        for (const event of [...this.streamOf(session, last.stream).values()]) {
          if (after) await send(event.id, event.message)
          after ||= event.id === lastEventId
        }

        return last.stream
      },
      storeEvent: async (stream, message) => (open ? this.store(session, stream, message) : this.nextId(stream)),
    }
  }

  /** How many events and bytes are kept (what the caps bound). */
  size(): {bytes: number; events: number} {
    return {bytes: this.bytes, events: this.all.size}
  }

  private store(session: string, stream: string, message: JSONRPCMessage): string {
    const id = this.nextId(stream)
    const event: Stored = {bytes: JSON.stringify(message).length, id, message, session, stream}
    const events = this.streamOf(session, stream)
    events.set(id, event)
    this.all.set(key(session, id), event)
    this.bytes += event.bytes
    if (events.size > this.limits.perStream) this.forget(events.values().next().value!)
    for (const oldest of this.all.values()) {
      if (this.bytes <= this.limits.totalBytes || oldest === event) break
      this.forget(oldest)
    }

    return id
  }

  // Ids follow one counter: what a replay sends after a cursor is what was stored after it.
  private nextId(stream: string): string {
    return `${stream}:${(this.next++).toString(36)}`
  }

  private find(session: string, eventId: string): Stored | undefined {
    return this.all.get(key(session, eventId))
  }

  private streamOf(session: string, stream: string): Map<string, Stored> {
    let streams = this.sessions.get(session)
    if (!streams) this.sessions.set(session, (streams = new Map()))
    let events = streams.get(stream)
    if (!events) streams.set(stream, (events = new Map()))
    return events
  }

  private forget(event: Stored): void {
    if (!this.all.delete(key(event.session, event.id))) return
    this.bytes -= event.bytes
    const streams = this.sessions.get(event.session)
    const events = streams?.get(event.stream)
    events?.delete(event.id)
    if (events?.size === 0) streams!.delete(event.stream)
    if (streams?.size === 0) this.sessions.delete(event.session)
  }
}

const key = (session: string, eventId: string) => `${session}\n${eventId}`
