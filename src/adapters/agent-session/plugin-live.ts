import type {Contribution, MentionCandidate} from '@hanzo-dev/sdk'

/** What the plugins offer for an `@` mention besides files, in the order they answered; a plugin that fails offers nothing. */
export async function pluginMentions(
  contributions: readonly {value: Contribution}[],
  prefix: string,
  signal: AbortSignal,
): Promise<MentionCandidate[]> {
  const offered = await Promise.all(
    contributions.map(async ({value}) => (await value.completeMention?.(prefix, signal).catch(() => [])) ?? []),
  )
  return offered.flat().filter((c) => typeof c?.value === 'string' && c.value.startsWith(prefix))
}

/**
 * The prompt the model gets: what the plugins queued since the last request (a mentioned
 * resource that changed), then the user's words. A plugin's queue is taken once.
 */
export function withPendingContext(contributions: readonly {value: Contribution}[], prompt: string): string {
  const pending = contributions
    .map(({value}) => value.pendingContext?.())
    .filter((text): text is string => typeof text === 'string' && text !== '')
  return pending.length === 0 ? prompt : [...pending, prompt].join('\n\n')
}
