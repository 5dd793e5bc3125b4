import type {Message} from './types.js'

/** What the model reads for a call whose result never came: the run was stopped, killed or failed during it. */
export const INTERRUPTED_RESULT = 'Error: interrupted: the call did not finish, so its result is unknown.'

/**
 * The one repair of a conversation before it is carried on (a resumed session, a history a run
 * is given): Esc, Ctrl-C, a kill or a model error during a turn can leave tool calls without
 * their results, or (with a lost line) results without their call, and every model API refuses
 * both. A call left unanswered gets an error result saying so, right after the results its reply
 * did get; a result answering no call of the reply before it is dropped. Everything else stays
 * as it is (the same objects), the text of a reply cut short included: it is what the user saw.
 */
export function repairHistory(history: readonly Message[]): Message[] {
  const repaired: Message[] = []
  let pending = new Map<string, string>()
  const settle = () => {
    for (const [id, name] of pending) {
      repaired.push({content: INTERRUPTED_RESULT, isError: true, role: 'tool', toolCallId: id, toolName: name})
    }

    pending = new Map()
  }

  for (const message of history) {
    if (message.role === 'tool') {
      if (pending.delete(message.toolCallId)) repaired.push(message)
      continue
    }

    settle()
    repaired.push(message)
    if (message.role === 'assistant') pending = new Map(message.toolCalls.map((call) => [call.id, call.name]))
  }

  settle()
  return repaired
}
