import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js'
import {describe, expect, it} from 'vitest'

import {ServedEvents} from '../src/serve/event-store.js'

const note = (n: number): JSONRPCMessage => ({jsonrpc: '2.0', method: 'notifications/message', params: {n}})

async function replay(events: ReturnType<ServedEvents['forSession']>, after: string) {
  const sent: [string, JSONRPCMessage][] = []
  const stream = await events.replayEventsAfter(after, {send: async (id, message) => void sent.push([id, message])})
  return {sent, stream}
}

// What `mcp serve --http` keeps for clients that resume a stream (SEP-1699), and how it stays bounded.
describe('the served event store', () => {
  it('replays, in order, what followed a cursor on its stream only', async () => {
    const events = new ServedEvents()
    const session = events.forSession('a')
    const first = await session.storeEvent('s1', note(1))
    await session.storeEvent('s2', note(2))
    const third = await session.storeEvent('s1', note(3))
    const fourth = await session.storeEvent('s1', note(4))
    expect(await session.getStreamIdForEventId!(first)).toBe('s1')
    expect(await replay(session, first)).toEqual({
      sent: [
        [third, note(3)],
        [fourth, note(4)],
      ],
      stream: 's1',
    })
  })

  it("does not resume another session's cursor", async () => {
    const events = new ServedEvents()
    const mine = await events.forSession('a').storeEvent('_GET_stream', note(1))
    const other = events.forSession('b')
    await other.storeEvent('_GET_stream', note(2))
    expect(await other.getStreamIdForEventId!(mine)).toBeUndefined()
    expect(await replay(other, mine)).toEqual({sent: [], stream: ''})
  })

  it('keeps the last events of a stream, and refuses a cursor that fell out', async () => {
    const events = new ServedEvents({perStream: 3, totalBytes: 1_000_000})
    const session = events.forSession('a')
    const ids: string[] = []
    for (let n = 0; n < 5; n++) ids.push(await session.storeEvent('s', note(n)))
    expect(events.size().events).toBe(3)
    expect(await session.getStreamIdForEventId!(ids[1])).toBeUndefined()
    expect((await replay(session, ids[2])).sent.map(([id]) => id)).toEqual(ids.slice(3))
  })

  it('holds every session together under its byte cap, oldest out first', async () => {
    const bytes = JSON.stringify(note(0)).length
    const events = new ServedEvents({perStream: 100, totalBytes: bytes * 4})
    const a = events.forSession('a')
    const b = events.forSession('b')
    const first = await a.storeEvent('s', note(0))
    for (let n = 1; n < 10; n++) await (n % 2 ? b : a).storeEvent('s', note(n))
    expect(events.size()).toEqual({bytes: bytes * 4, events: 4})
    expect(await a.getStreamIdForEventId!(first)).toBeUndefined()
  })

  it('forgets a session when it closes, and keeps nothing it sends later', async () => {
    const events = new ServedEvents()
    const a = events.forSession('a')
    const kept = await events.forSession('b').storeEvent('s', note(0))
    const gone = await a.storeEvent('s', note(1))
    await a.storeEvent('_GET_stream', note(2))
    a.close()
    const late = await a.storeEvent('s', note(3))
    expect(events.size().events).toBe(1)
    expect(await a.getStreamIdForEventId!(gone)).toBeUndefined()
    expect(await a.getStreamIdForEventId!(late)).toBeUndefined()
    expect(await events.forSession('b').getStreamIdForEventId!(kept)).toBe('s')
  })
})
