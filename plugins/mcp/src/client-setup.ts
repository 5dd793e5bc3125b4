import {basename} from 'node:path'
import {pathToFileURL} from 'node:url'

import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {ClientCapabilities, Implementation} from '@modelcontextprotocol/sdk/types.js'

import type {ServerLog} from './server-log.js'

export interface ClientSetup {
  /** Declared as given, beside roots. */
  capabilities?: ClientCapabilities
  /** The session's workspace roots (absolute directories); none: no roots capability. */
  roots?: () => readonly string[]
  /** Where the server's `notifications/message` go. */
  log: ServerLog
}

/** An SDK client that answers `roots/list` with the session's roots and logs what the server says. */
export async function newMcpClient(info: Implementation, setup: ClientSetup): Promise<Client> {
  const {Client} = await import('@modelcontextprotocol/sdk/client/index.js')
  const {ListRootsRequestSchema, LoggingMessageNotificationSchema} = await import('@modelcontextprotocol/sdk/types.js')
  const {roots} = setup
  // The roots cannot change during a session yet (no command adds a directory): nothing to announce.
  const capabilities = {...setup.capabilities, ...(roots ? {roots: {listChanged: false}} : {})}
  const client = new Client(info, {capabilities})
  if (roots)
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: roots().map((dir) => ({name: basename(dir), uri: pathToFileURL(dir).href})),
    }))
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    setup.log.record(notification.params)
  })
  return client
}
