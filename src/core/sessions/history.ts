import {isMessageLine, type MessageLine, type TranscriptLine} from './transcript.js'

/**
 * The conversation a resumed run sends: the message lines in order, restarted by each `history`
 * line (a compaction rewrote it) and each run with a conversation of its own (its last run's).
 * A run killed mid-turn can leave it unsendable: its reader repairs it (repairHistory).
 */
export function conversationLines(lines: readonly TranscriptLine[]): MessageLine[] {
  let conversation: MessageLine[] = []
  for (const line of lines) {
    if (line.type === 'history') conversation = [...line.messages]
    else if (line.type === 'run' && line.new_conversation) conversation = []
    else if (isMessageLine(line)) conversation.push(line)
  }

  return conversation
}
