import {isMessageLine, type MessageLine, type TranscriptLine} from './transcript.js'

/** What the model reads for a call whose result never reached the transcript. */
export const MISSING_RESULT = 'Error: the session ended before this call finished; its result is unknown.'

/**
 * The conversation a resumed run sends: the message lines in order, restarted by each `history`
 * line (a compaction rewrote it) and each run with a conversation of its own (its last run's). A run killed mid-turn can leave tool calls without results, or
 * (with a torn line) results without their call; both would be refused by the model's API, so
 * a missing result is filled in as an error and an orphan result is dropped.
 */
export function conversationLines(lines: readonly TranscriptLine[]): MessageLine[] {
  let conversation: MessageLine[] = []
  for (const line of lines) {
    if (line.type === 'history') conversation = [...line.messages]
    else if (line.type === 'run' && line.new_conversation) conversation = []
    else if (isMessageLine(line)) conversation.push(line)
  }

  return pairToolResults(conversation)
}

function pairToolResults(messages: readonly MessageLine[]): MessageLine[] {
  const paired: MessageLine[] = []
  let pending = new Map<string, string>()
  const settle = () => {
    for (const [id, name] of pending)
      paired.push({content: MISSING_RESULT, is_error: true, tool_call_id: id, tool_name: name, type: 'tool_result'})
    pending = new Map()
  }

  for (const message of messages) {
    if (message.type === 'tool_result') {
      if (!pending.delete(message.tool_call_id)) continue
      paired.push(message)
      continue
    }

    settle()
    paired.push(message)
    if (message.type === 'assistant') pending = new Map(message.tool_calls.map((call) => [call.id, call.name]))
  }

  settle()
  return paired
}
