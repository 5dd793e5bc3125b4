import type {ApiClient, Message, StreamEvent} from '../../src/core/agent/types.js'

/** A model that answers each request with the next scripted list of events, and records what it was sent. */
export function scripted(...replies: StreamEvent[][]): ApiClient & {requests: Message[][]} {
  const requests: Message[][] = []
  return {
    requests,
    async *sendMessage(messages) {
      requests.push(structuredClone([...messages]))
      const reply = replies.shift()
      if (!reply) throw new Error('script exhausted')
      yield* reply
    },
  }
}
