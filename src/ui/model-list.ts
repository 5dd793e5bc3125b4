import type {AgentSession, ListedModel} from '@hanzo-dev/sdk'

/** More than this many models (OpenAI lists over a hundred) are cut, with a count of the rest. */
const SHOWN = 40

/**
 * `/model` with no argument: what the session's endpoint lists, numbered (`/model 3` picks the
 * third), the current model marked, with its context window and price when the server or the
 * model catalog knows them. The ids are the server's words: the chat says them through the printer.
 */
export async function modelListing(
  session: AgentSession,
  signal: AbortSignal,
): Promise<{lines: string[]; models: ListedModel[]}> {
  const [listed, {modelInfo}] = await Promise.all([
    session.models({signal}),
    // The catalog is loaded when a list is asked for, never at start-up.
    import('../adapters/model-catalog.js'),
  ])
  const models = listed.slice(0, SHOWN)
  const width = Math.min(40, Math.max(0, ...models.map(({id}) => id.length)))
  const lines = models.map(({contextWindow, id}, index) => {
    const info = modelInfo(session.provider, id)
    const context = contextWindow ?? info?.contextWindow
    const details = [
      context ? `${Math.round(context / 1000)}k context` : '',
      info?.inputPerMTok === undefined ? '' : `$${info.inputPerMTok}/$${info.outputPerMTok ?? '?'} per Mtok in/out`,
    ].filter(Boolean)
    const mark = id === session.model ? '›' : ' '
    return `${mark} ${String(index + 1).padStart(2)}  ${id.padEnd(width)}  ${details.join(', ')}`.trimEnd()
  })
  if (listed.length > SHOWN) lines.push(`  … and ${listed.length - SHOWN} more (/model ID takes any of them)`)
  if (listed.length === 0) lines.push(`  ${session.provider}'s endpoint lists no models: /model ID names one.`)
  return {lines, models}
}
