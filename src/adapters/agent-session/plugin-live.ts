import type {ContributedSlashCommand, Contribution, MentionCandidate, SlashCommandDefinition} from '@hanzo-dev/sdk'

import {isSlashCommand, type PluginAnswer} from '../plugin-host.js'

/**
 * What the session's plugins offer while it runs, as the chat asks for it: their slash commands
 * (a plugin may send new ones later), the notices they raise, their status items, what they
 * complete after `@` and the context they queue for the next prompt. Kept apart from the run
 * loop: these change under the session, the loop only reads them.
 */
export class PluginLive {
  /** The commands a plugin sent after its answer (watchSlashCommands), in place of the answer's. */
  private readonly watchedCommands = new Map<Contribution, SlashCommandDefinition[]>()
  private readonly commandListeners: (() => void)[] = []
  private readonly noticeListeners: ((line: string) => void)[] = []

  constructor(private readonly contributions: ReadonlyArray<PluginAnswer<Contribution>>) {}

  /** Follows the plugins' later commands and notices: the root session's alone, a plugin's watcher is set once. */
  watch(): void {
    for (const {value} of this.contributions) {
      value.watchSlashCommands?.((commands) => {
        this.watchedCommands.set(value, Array.isArray(commands) ? commands.filter((c) => isSlashCommand(c)) : [])
        for (const listener of this.commandListeners) listener()
      })
      value.watchNotices?.((line) => {
        for (const listener of this.noticeListeners) listener(String(line))
      })
    }
  }

  slashCommands(): readonly ContributedSlashCommand[] {
    return this.contributions.flatMap(({plugin, pluginType, value}) =>
      (this.watchedCommands.get(value) ?? value.slashCommands ?? []).map((definition) => ({
        definition,
        plugin,
        pluginType,
      })),
    )
  }

  onSlashCommandsChanged(listener: () => void): void {
    this.commandListeners.push(listener)
  }

  onNotice(listener: (line: string) => void): void {
    this.noticeListeners.push(listener)
  }

  statusItems(): readonly string[] {
    return this.contributions.flatMap(({value: {status}}) => {
      // A plugin's function that throws loses its item, not the status line.
      const text = typeof status === 'function' ? attempt(status) : status
      return text ? [text] : []
    })
  }

  /** What the plugins offer for an `@` mention besides files, in the order they answered; a plugin that fails offers nothing. */
  async mentions(prefix: string, signal: AbortSignal): Promise<MentionCandidate[]> {
    // A plugin that does not heed the signal is not waited for past it: Tab must not hang.
    const abandoned = new Promise<MentionCandidate[]>((resolve) =>
      signal.addEventListener('abort', () => resolve([]), {once: true}),
    )
    const offered = await Promise.all(
      this.contributions.map(
        async ({value}) =>
          (await Promise.race([value.completeMention?.(prefix, signal).catch(() => []), abandoned])) ?? [],
      ),
    )
    return offered.flat().filter((c) => typeof c?.value === 'string' && c.value.startsWith(prefix))
  }

  /**
   * The prompt the model gets: what the plugins queued since the last request (a mentioned
   * resource that changed), then the user's words. A plugin's queue is taken once.
   */
  withPendingContext(prompt: string): string {
    const pending = this.contributions
      .map(({value}) => value.pendingContext?.())
      .filter((text): text is string => typeof text === 'string' && text !== '')
    return pending.length === 0 ? prompt : [...pending, prompt].join('\n\n')
  }
}

function attempt(status: () => string | undefined): string | undefined {
  try {
    return status()
  } catch {
    return undefined
  }
}
