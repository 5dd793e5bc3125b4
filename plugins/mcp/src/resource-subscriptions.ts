import type {McpConnection} from './connection.js'
import {resourceText, visibleText} from './tool-result.js'

/**
 * The resources read in a session (an `@server:uri` mention, or the model's `mcp_read_resource`),
 * followed while it lasts: each one whose server declares `resources.subscribe` is subscribed
 * once; when the server says it changed, it is read again and its new content waits for the
 * model's next request, and the user hears of it once until then.
 */
export class ResourceSubscriptions {
  /** By mention (`server:uri`): whether the server took the subscription, once it answers. */
  private readonly followed = new Map<string, {connection: McpConnection; uri: string; subscribed: Promise<boolean>}>()
  private readonly pending = new Map<string, string>()
  private readonly listeners: ((line: string) => void)[] = []

  /**
   * Subscribes to `uri` once (a second call waits for the first); a server that cannot is left
   * alone, one that fails says why in a notice. Resolves with whether it is followed.
   */
  follow(connection: McpConnection, uri: string): Promise<boolean> {
    const key = mention(connection, uri)
    const known = this.followed.get(key)
    if (known) return known.subscribed
    const subscribed = connection.subscribe(uri).catch((error: unknown) => {
      this.notify(`cannot follow resource ${key}: ${error instanceof Error ? error.message : String(error)}`)
      return false
    })
    this.followed.set(key, {connection, subscribed, uri})
    return subscribed
  }

  /** The server said `uri` changed: read it again for the next request. */
  async updated(connection: McpConnection, uri: string): Promise<void> {
    const key = mention(connection, uri)
    if (!(await this.followed.get(key)?.subscribed)) return
    try {
      const read = await connection.readResource(uri)
      const text = visibleText(read.contents.map((contents) => resourceText(contents, connection.name)).join('\n'))
      const told = this.pending.has(key)
      this.pending.set(key, `The MCP resource ${key} changed; it now reads:\n${text}`)
      if (!told) this.notify(`resource ${key} changed`)
    } catch (error) {
      this.notify(
        `resource ${key} changed, and reading it failed: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
  }

  /** What changed since the last call, for the model's next request; undefined when nothing did. */
  take(): string | undefined {
    if (this.pending.size === 0) return undefined
    const text = [...this.pending.values()].join('\n\n')
    this.pending.clear()
    return text
  }

  onNotice(listener: (line: string) => void): void {
    this.listeners.push(listener)
  }

  /** Unsubscribes from all, before the servers close; a server gone already has nothing to unsubscribe. */
  async close(): Promise<void> {
    const followed = [...this.followed.values()]
    this.followed.clear()
    await Promise.all(
      followed.map(async ({connection, subscribed, uri}) => {
        // A crashed server is not started again just to be told.
        if ((await subscribed) && connection.state === 'connected') await connection.unsubscribe(uri).catch(() => {})
      }),
    )
  }

  private notify(line: string): void {
    for (const listener of this.listeners) listener(line)
  }
}

function mention(connection: McpConnection, uri: string): string {
  return `${connection.name}:${uri}`
}
