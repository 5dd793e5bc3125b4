import {createHash} from 'node:crypto'

import type {RequestView} from './request-view.js'
import type {Expectations} from './script.js'

/** Long enough to recognize a message, short enough to read in a failing test's output. */
const SHOWN = 120

/** One line per check the request fails, saying what was expected and what came instead. */
export function unmetExpectations(expect: Expectations, view: RequestView): string[] {
  const failures: string[] = []
  const {
    has_tool_result_for: resultFor,
    last_user_contains: lastUser,
    system_contains: system,
    tool_result_contains: resultText,
    tools_exclude: excluded,
    tools_include: tools,
  } = expect
  const last = view.users.at(-1)
  if (lastUser !== undefined && !last?.includes(lastUser)) {
    failures.push(
      `last_user_contains ${show(lastUser)}: the last user message is ${last === undefined ? 'missing' : show(last)}`,
    )
  }

  if (system !== undefined && !view.system.some((text) => text.includes(system))) {
    failures.push(
      `system_contains ${show(system)}: ${view.system.length === 0 ? 'there is no system message' : `the system message is ${show(view.system.join('\n'))}`}`,
    )
  }

  if (
    resultFor !== undefined &&
    !view.toolResults.some((result) => result.callId === resultFor || result.name === resultFor)
  ) {
    const answered = view.toolResults.map((result) =>
      result.name ? `${result.callId} (${result.name})` : result.callId,
    )
    failures.push(
      `has_tool_result_for ${show(resultFor)}: ${answered.length === 0 ? 'there are no tool results' : `the tool results answer ${answered.join(', ')}`}`,
    )
  }

  if (expect.tool_calls_answered) failures.push(...unansweredCalls(view))

  if (resultText !== undefined && !view.toolResults.some((result) => result.content.includes(resultText))) {
    const contents = view.toolResults.map((result) => show(result.content))
    failures.push(
      `tool_result_contains ${show(resultText)}: ${contents.length === 0 ? 'there are no tool results' : `the tool results are ${contents.join(', ')}`}`,
    )
  }

  const missing = (tools ?? []).filter((name) => !view.tools.includes(name))
  if (missing.length > 0) {
    failures.push(
      `tools_include: ${missing.join(', ')} not offered; the request offers ${view.tools.length === 0 ? 'no tools' : view.tools.join(', ')}`,
    )
  }

  const offered = (excluded ?? []).filter((name) => view.tools.includes(name))
  if (offered.length > 0) failures.push(`tools_exclude: ${offered.join(', ')} offered`)

  if (expect.authorization_sha256 !== undefined) {
    const credential = view.authorization?.replace(/^bearer\s+/i, '')
    const hash = credential === undefined ? undefined : createHash('sha256').update(credential).digest('hex')
    if (hash !== expect.authorization_sha256.toLowerCase()) {
      failures.push(
        `authorization_sha256: ${credential === undefined ? 'the request carries no Authorization header' : 'the request carries another credential'}`,
      )
    }
  }

  const most = expect.max_output_tokens_at_most
  if (most !== undefined && !(view.maxOutputTokens !== undefined && view.maxOutputTokens <= most))
    failures.push(
      `max_output_tokens_at_most ${most}: ${view.maxOutputTokens === undefined ? 'the request sets no reply limit' : `the request allows ${view.maxOutputTokens}`}`,
    )

  return failures
}

/** `tool_calls_answered`: the calls without a result and the results without a call. */
function unansweredCalls(view: RequestView): string[] {
  const answered = new Set(view.toolResults.map((result) => result.callId))
  const called = new Set(view.toolCalls)
  const unanswered = view.toolCalls.filter((id) => !answered.has(id))
  const orphans = view.toolResults.filter((result) => !called.has(result.callId)).map((result) => result.callId)
  return [
    ...(unanswered.length > 0 ? [`tool_calls_answered: no result for call ${unanswered.join(', ')}`] : []),
    ...(orphans.length > 0 ? [`tool_calls_answered: result for no call: ${orphans.join(', ')}`] : []),
  ]
}

function show(text: string): string {
  return JSON.stringify(text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text)
}
