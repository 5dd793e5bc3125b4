import {UserError} from '../core/errors.js'
import type {ListedSession} from '../core/sessions/render.js'
import {summarize} from '../core/sessions/summary.js'
import type {Prices} from '../core/sessions/usage.js'
import type {SessionStore} from './session-store.js'

export interface SessionListingOptions {
  /** Every project's when absent. */
  projectRoot?: string
  limit: number
  /** Only the sessions whose id it accepts (decided before any transcript is read). */
  include?(id: string): boolean
  prices: Prices
  warn(message: string): void
}

/** The newest saved sessions, summarized (`sessions list`, chat's `/resume`). */
export async function listSessions(
  store: SessionStore,
  options: SessionListingOptions,
): Promise<Array<ListedSession & {path: string}>> {
  const sessions: Array<ListedSession & {path: string}> = []
  const listed = (await store.list(options.projectRoot)).filter((stored) => options.include?.(stored.id) ?? true)
  for (const stored of listed.slice(0, options.limit)) {
    // One unreadable file (a kill while its header was written) does not hide the others.
    const transcript = await store.read(stored.path).catch((error: unknown) => {
      if (!(error instanceof UserError)) throw error
      options.warn(error.message)
    })
    if (transcript)
      sessions.push({
        ...summarize(transcript, options.prices),
        path: stored.path,
        updated_at: stored.modified.toISOString(),
      })
  }

  return sessions
}
