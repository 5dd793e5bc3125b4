import {UserError} from '../../core/errors.js'
import {conversationBefore, type SessionPrompt, sessionPrompts} from '../../core/sessions/prompts.js'
import {type SessionStore, type StoredSession, TranscriptFile} from '../session-store.js'
import {type CheckpointStore, type CodeDiff, type SessionCheckpoints, sessionHolder} from './store.js'

/** What rewinding a session to before prompt `to` would do, worked out before anything is done. */
export interface RewindPlan {
  session: StoredSession
  prompts: SessionPrompt[]
  to: number
  /** Undefined: the session has no checkpoints (it changed no file, or they were pruned). */
  checkpoints?: SessionCheckpoints
  code: CodeDiff
  /** Messages of the conversation now, and before prompt `to`. */
  messages: {now: number; before: number}
}

const NO_CHANGE: CodeDiff = {created: [], deleted: [], modified: [], notKept: []}

/**
 * The plan of a rewind to before prompt `to` (the session's last prompt when absent). A session
 * another process has open is refused: its next turn would write over what the rewind put back.
 */
export async function planRewind(
  stores: {sessions: SessionStore; checkpoints: CheckpointStore},
  id: string,
  to?: number,
): Promise<RewindPlan> {
  const session = await stores.sessions.find(id)
  const transcript = await stores.sessions.read(session.path)
  const prompts = sessionPrompts(transcript.header.created_at, transcript.lines)
  const target = to ?? prompts.length
  if (!Number.isInteger(target) || target < 1 || target > prompts.length)
    throw new UserError(`Session ${session.id} has prompts 1 to ${prompts.length}, not ${to}`, {
      exitCode: 2,
      hint: `hanzo-dev sessions rewind ${session.id} --to N rewinds to just before prompt N`,
    })
  const checkpoints = await stores.checkpoints.session(session.id)
  const holder = checkpoints && sessionHolder(checkpoints.dir, session.id)
  if (holder !== undefined && holder !== process.pid)
    throw new UserError(`Session ${session.id} is in use by process ${holder}`, {
      hint: 'end that session first: rewinding under it would be undone by its next turn',
    })
  const {history} = await stores.sessions.load(session.path)
  return {
    checkpoints,
    code: checkpoints ? await checkpoints.diff(target) : NO_CHANGE,
    messages: {before: conversationBefore(transcript.lines, target).length, now: history.length},
    prompts,
    session,
    to: target,
  }
}

/** Carries out a plan: the code put back, the conversation cut back (a `history` line), or both. */
export async function applyRewind(
  stores: {sessions: SessionStore},
  plan: RewindPlan,
  what: {code: boolean; conversation: boolean},
  warn: (message: string) => void,
): Promise<CodeDiff> {
  const done = what.code && plan.checkpoints ? await plan.checkpoints.restore(plan.to) : NO_CHANGE
  if (what.conversation) {
    const {lines} = await stores.sessions.read(plan.session.path)
    const file = new TranscriptFile(plan.session.path, warn)
    file.append({
      at: new Date().toISOString(),
      cause: 'rewound',
      messages: conversationBefore(lines, plan.to),
      type: 'history',
    })
    file.close()
  }

  return done
}
