import type {RewindPlan} from '../../adapters/checkpoints/rewind.js'
import type {CodeDiff} from '../../adapters/checkpoints/store.js'
import type {ResultOf} from './protocol.js'

export interface RewindChoice {
  code: boolean
  conversation: boolean
}

/** session/rewind's answer: the plan as `sessions rewind --json` shows it, and what was done (undefined: a dry run). */
export function rewindResult(plan: RewindPlan, what: RewindChoice, done?: CodeDiff): ResultOf<'session/rewind'> {
  return {
    code: what.code ? plan.code : null,
    conversation: what.conversation ? {messagesBefore: plan.messages.before, messagesNow: plan.messages.now} : null,
    prompts: plan.prompts.map((prompt) => ({number: prompt.index, text: prompt.text})),
    rewound: done === undefined ? null : {code: what.code ? done : null, conversation: what.conversation},
    sessionId: plan.session.id,
    to: plan.to,
  }
}
