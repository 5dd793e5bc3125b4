import {shellQuote} from '@hanzo-dev/sdk'

import type {PermissionDecision, PermissionPrompter, PermissionRequestContext} from '../../core/agent/types.js'
import type {AllowAdvice} from '../../core/permissions/allow-advice.js'

/**
 * The prompter of a run no one can answer (stdin is not a terminal, or the user asked for no
 * questions): it denies, and the reason, which reaches the model and the user, says how to
 * allow the call next time (allow-advice.ts).
 */
export class NonInteractivePrompter implements PermissionPrompter {
  requestPermission(
    toolName: string,
    _input: Record<string, unknown>,
    context?: PermissionRequestContext,
  ): Promise<PermissionDecision> {
    const howTo = context ? allowHint(context.advice) : 'Run with --permission-mode allow-all.'
    const why = context?.notice ? ` (${context.notice})` : ''
    return Promise.resolve({
      reason: `${toolName} needs approval${why} and no one can be asked in this run. ${howTo}`,
      type: 'deny',
    })
  }
}

/**
 * The rules as `config set` commands to paste, last on the line: `config set` writes the local
 * settings keeping the project trusted, where an allow rule written by hand stays inert until
 * `hanzo-dev trust`.
 */
function allowHint(advice: AllowAdvice): string {
  if (advice.kind === 'rules') {
    // The rules allow it: it is asked about for a reason of its own, which the notice gives with what to run.
    if (advice.rules.length === 0) return 'Approve it in a run on a terminal, or as the reason says.'
    const commands = advice.rules.map(
      (rule) => `hanzo-dev config set ${shellQuote(`permissions.${rule}`)} allow --tier local`,
    )
    return `Run with --permission-mode allow-all, or allow it from now on with: ${commands.join(' && ')}`
  }

  const why = advice.why.charAt(0).toUpperCase() + advice.why.slice(1)
  if (!advice.sessionMode) return `${why}: no rule, mode or person can allow it.`
  return `${why}. Approve it in a run on a terminal, or run with --permission-mode allow-all.`
}
