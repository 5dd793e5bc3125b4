import {basename} from 'node:path'
import {pathToFileURL} from 'node:url'

import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {ClientCapabilities, Implementation, LoggingLevel} from '@modelcontextprotocol/sdk/types.js'

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

/** What a connection does when its server says something changed. */
export interface ServerChanges {
  toolsChanged(): void
  resourcesChanged(): void
  promptsChanged(): void
  /** A resource we subscribed to changed. */
  resourceUpdated(uri: string): void
  /** `mcp_servers.NAME.log_level`: the least a server that logs should send (`logging/setLevel`). */
  logLevel?: LoggingLevel
  log: ServerLog
  timeoutMs: number
}

/**
 * Once connected: hears the server's list_changed and resource updates, and sets the level it
 * logs at. A level refused is a line in its log, not a failed start: the server still works.
 */
export async function followServer(client: Client, changes: ServerChanges): Promise<void> {
  const {
    PromptListChangedNotificationSchema,
    ResourceListChangedNotificationSchema,
    ResourceUpdatedNotificationSchema,
    ToolListChangedNotificationSchema,
  } = await import('@modelcontextprotocol/sdk/types.js')
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => changes.toolsChanged())
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => changes.resourcesChanged())
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => changes.promptsChanged())
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
    changes.resourceUpdated(notification.params.uri),
  )
  const {logLevel} = changes
  if (logLevel && client.getServerCapabilities()?.logging)
    await client.setLoggingLevel(logLevel, {timeout: changes.timeoutMs}).catch((error: unknown) => {
      changes.log.record({
        data: `logging/setLevel ${logLevel} failed: ${error instanceof Error ? error.message : String(error)}`,
        level: 'warning',
        logger: 'hanzo-dev',
      })
    })
}
