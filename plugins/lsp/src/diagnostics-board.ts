import type {Diagnostic} from 'vscode-languageserver-protocol'

interface Entry {
  items?: Diagnostic[]
  /** How many times the server published for the document. */
  publishes: number
  /** `publishes` when the document was last opened or changed: what came before is stale. */
  changedAt: number
  /** The diagnostics settled after the last change: later publishes keep them current, nobody needs to wait. */
  settled: boolean
  listeners: Set<() => void>
}

/**
 * What a server pushed with `publishDiagnostics`, per document. Servers publish in bursts
 * (typescript-language-server: syntax first, then semantics, ~1.5 s after the first open), so
 * the answer to "what are the diagnostics now" is the last publish after the change once the
 * server has been quiet for a moment.
 */
export class DiagnosticsBoard {
  private readonly entries = new Map<string, Entry>()
  private closed = false

  publish(uri: string, items: Diagnostic[]): void {
    const entry = this.entry(uri)
    entry.items = items
    entry.publishes++
    for (const listener of entry.listeners) listener()
  }

  /** The document changed: only publishes from now on describe it. */
  expect(uri: string): void {
    const entry = this.entry(uri)
    entry.changedAt = entry.publishes
    entry.settled = false
  }

  /** Whether the server published anything yet (before that it is still loading the project). */
  hasPublished(): boolean {
    return [...this.entries.values()].some((e) => e.publishes > 0)
  }

  latest(uri: string): Diagnostic[] | undefined {
    return this.entries.get(uri)?.items
  }

  /**
   * The diagnostics published after the last change, once `settleMs` passed without another
   * publish (at `timeoutMs`, the last of them); undefined when none came by then: what was
   * published before the change describes another text, and no publish is no news, not a clean file.
   */
  async settled(
    uri: string,
    {settleMs, timeoutMs}: {settleMs: number; timeoutMs: number},
  ): Promise<Diagnostic[] | undefined> {
    const entry = this.entry(uri)
    if (entry.settled) return entry.items ?? []
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const remaining = deadline - Date.now()
      if (remaining <= 0 || this.closed) break
      const fresh = entry.publishes > entry.changedAt
      const published = await this.nextPublish(entry, fresh ? Math.min(settleMs, remaining) : remaining)
      if (fresh && !published) {
        entry.settled = true
        break
      }
    }

    return entry.publishes > entry.changedAt ? (entry.items ?? []) : undefined
  }

  /** The server is gone: nobody waits for it. */
  close(): void {
    this.closed = true
    for (const entry of this.entries.values()) for (const listener of entry.listeners) listener()
  }

  private nextPublish(entry: Entry, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (published: boolean) => {
        clearTimeout(timer)
        entry.listeners.delete(listener)
        resolve(published)
      }

      const listener = () => done(!this.closed)
      const timer = setTimeout(() => done(false), ms)
      entry.listeners.add(listener)
    })
  }

  private entry(uri: string): Entry {
    let entry = this.entries.get(uri)
    if (!entry) {
      entry = {changedAt: 0, listeners: new Set(), publishes: 0, settled: false}
      this.entries.set(uri, entry)
    }

    return entry
  }
}
