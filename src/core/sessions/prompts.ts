import {conversationLines} from './history.js'
import type {MessageLine, TranscriptLine} from './transcript.js'

/**
 * A session's prompts, as checkpoints and `sessions rewind` number them: each recorded run is
 * one, the header's first and each `run` line's after it, 1-based. A rewind does not renumber:
 * the next prompt after it still takes the next number, so no two prompts share checkpoints.
 */
export interface SessionPrompt {
  index: number
  at: string
  /** The run's prompt (its first user message); empty when it was cut short before one. */
  text: string
}

export function promptCount(lines: readonly TranscriptLine[]): number {
  return 1 + lines.filter((line) => line.type === 'run').length
}

export function sessionPrompts(at: string, lines: readonly TranscriptLine[]): SessionPrompt[] {
  const prompts: SessionPrompt[] = [{at, index: 1, text: ''}]
  for (const line of lines) {
    if (line.type === 'run') prompts.push({at: line.at, index: prompts.length + 1, text: ''})
    else if (line.type === 'user' && prompts.at(-1)!.text === '') prompts.at(-1)!.text = line.content
  }

  return prompts
}

/** The conversation as it was before prompt `index` was sent. */
export function conversationBefore(lines: readonly TranscriptLine[], index: number): MessageLine[] {
  let runs = 1
  const cut = lines.findIndex((line) => line.type === 'run' && ++runs === index)
  return index <= 1 ? [] : conversationLines(cut === -1 ? lines : lines.slice(0, cut))
}
