import type {Contribution, SessionEventInput, SessionEventVerdict} from '@hanzo-dev/sdk'

import type {PluginAnswer} from '../plugin-host.js'

/**
 * Tells every plugin that asked about a session event (hooks run theirs), in the order they
 * answered. The first deny wins. A plugin that throws is a bug in it: on `user_prompt_submit`
 * that counts as a deny (a hook meant to stop prompts must not be skipped by a crash), on the
 * other events as a warning.
 */
export async function fireSessionEvent(
  answers: ReadonlyArray<PluginAnswer<Contribution>>,
  input: SessionEventInput,
  warn: (message: string) => void,
): Promise<SessionEventVerdict> {
  for (const {plugin, value} of answers) {
    if (!value.onSessionEvent) continue
    let verdict: SessionEventVerdict
    try {
      verdict = await value.onSessionEvent(input)
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error)
      warn(`plugin ${plugin} failed on ${input.event}: ${why}`)
      if (input.event !== 'user_prompt_submit') continue
      verdict = {decision: 'deny', reason: `plugin ${plugin} failed: ${why}`}
    }

    if (verdict.decision === 'deny') {
      if (input.event !== 'user_prompt_submit') warn(`plugin ${plugin} objected to ${input.event}: ${verdict.reason}`)
      return verdict
    }
  }

  return {decision: 'allow'}
}
