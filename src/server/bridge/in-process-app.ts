import {randomUUID} from 'node:crypto'

import type {AppServer} from '../app/app-server.js'
import type {AppServerLink, EventHandlers, EventStream, RpcChannel} from './app-client.js'

/**
 * The app server in the bridge's own process (`hanzo-dev bridge` without `--app`): the same
 * methods, sessions and owner scoping as `hanzo-dev app-server`, reached by a call instead of an
 * HTTP request per message. For a bridge on the machine whose agent it drives (an IDE, a local
 * web UI): one command, and no loopback hop and no app token between the two.
 */
export class InProcessAppServer implements AppServerLink {
  readonly description = 'app server in this process'
  private readonly connections = new Map<string, ReturnType<AppServer['connect']>>()

  constructor(private readonly server: AppServer) {}

  async openEvents(owner: string, handlers: EventHandlers): Promise<EventStream> {
    const id = randomUUID()
    // As over SSE: each message is one line of JSON text, a text frame as it is.
    const connection = this.server.connect(id, (message) => handlers.message(JSON.stringify(message)), owner)
    this.connections.set(id, connection)
    return {
      close: () => {
        this.connections.delete(id)
        connection.close()
      },
      connectionId: id,
      // Messages are handed over as they come: there is no stream to hold back.
      pause() {},
      resume() {},
    }
  }

  rpcChannel(connectionId: string): RpcChannel {
    return {
      close() {},
      post: async (body) => {
        const connection = this.connections.get(connectionId)
        if (!connection) return {body: '', status: 404}
        // The bridge has checked that the frame is one JSON-RPC message.
        const response = await this.server.handle(connection, JSON.parse(body))
        return response ? {body: JSON.stringify(response), status: 200} : {body: '', status: 202}
      },
    }
  }

  async close(): Promise<void> {
    for (const connection of this.connections.values()) connection.close()
    this.connections.clear()
    await this.server.close()
  }
}
