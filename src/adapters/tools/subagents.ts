/** One child the `task` tool started, as the displays show it. */
export interface SubagentProgress {
  /** Unique within the session, in start order. */
  id: number
  type: string
  description: string
  toolUses: number
  status: 'running' | 'completed' | 'failed'
}

type Listener = (progress: Readonly<SubagentProgress>) => void

/** How many children may run at once: each holds a model stream and its own tool calls. */
export const MAX_CONCURRENT_SUBAGENTS = 4

/**
 * The children of a session's `task` calls: how many run (the bound) and what each has done so
 * far, for the displays that fold each child into one line (the chat) or print its start and end.
 */
export class Subagents {
  private next = 1
  private running = 0
  private readonly listeners = new Set<Listener>()

  constructor(readonly limit = MAX_CONCURRENT_SUBAGENTS) {}

  /** Calls `listener` on each start, tool use and end; returns how to stop. */
  watch(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** A child starts: undefined when `limit` run already. */
  start(type: string, description: string): SubagentHandle | undefined {
    if (this.running >= this.limit) return undefined
    this.running++
    const progress: SubagentProgress = {description, id: this.next++, status: 'running', toolUses: 0, type}
    const tell = () => {
      for (const listener of this.listeners) listener({...progress})
    }

    tell()
    return {
      end: (status) => {
        this.running--
        progress.status = status
        tell()
      },
      toolUsed: () => {
        progress.toolUses++
        tell()
      },
    }
  }
}

export interface SubagentHandle {
  toolUsed(): void
  end(status: 'completed' | 'failed'): void
}
