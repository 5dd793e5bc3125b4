import type {AgentSession} from '@hanzo-dev/sdk'

import {statusLine} from './chat-screen.js'
import {UsageMeter} from './usage-meter.js'

/**
 * The status line under the prompt: the model, the permission mode, the plugins' items, and what
 * the conversation has used as the meter counts it. Made anew on each draw: a plugin's items
 * change during the session (an MCP server that connects late).
 */
export class ChatStatus {
  readonly meter = new UsageMeter()
  text = ''

  constructor(
    private readonly permissionMode: string,
    private readonly session: () => AgentSession | undefined,
  ) {}

  update(): void {
    const session = this.session()
    this.text = statusLine({
      contextBudget: this.meter.budget,
      contextTokens: this.meter.contextTokens,
      items: session?.statusItems() ?? [],
      model: session?.model ?? 'starting…',
      permissionMode: this.permissionMode,
      usage: this.meter.totals,
    })
  }

  /** Takes the session's own count, which has every request and the price (after a turn or a command). */
  async settle(): Promise<void> {
    const usage = await this.session()
      ?.usage()
      .catch(() => undefined)
    if (usage) this.meter.settle(usage)
    this.update()
  }
}
