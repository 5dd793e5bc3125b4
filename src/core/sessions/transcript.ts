import type {ImagePart, RequestKind, TodoItem} from '@hanzo-dev/sdk'

import type {SessionEnvironment} from '../agent/system-prompt.js'
import type {Message, ReasoningBlock} from '../agent/types.js'

/**
 * A saved session is one JSONL file, appended to as the session goes (docs/run-output.md,
 * "Sessions"). The first line is the header; every later line is one of the types below.
 * Messages are stored as the model saw them, so a resumed run sends the same conversation.
 * Readers skip line types they do not know: later versions may add some.
 */
export const TRANSCRIPT_VERSION = 1

export interface SessionHeader {
  type: 'session'
  version: number
  id: string
  created_at: string
  cwd: string
  project_root: string
  model: string
  provider: string
  /** The first run's stage, when a command with stages made it (`plan`). */
  label?: string
  /** The session this one is a fork of (`--fork-session`, `/fork`): its conversation starts as a copy of that one's. */
  forked_from?: string
  /**
   * The machine and repository as the system prompt told of them when the session started: later
   * runs tell the same (but the date), so the prompt's bytes, and the model's prompt cache, stay.
   */
  environment?: SessionEnvironment
}

/** A later run of the same session (`run --continue` / `--resume`): where and with what it ran. */
export interface RunLine {
  type: 'run'
  at: string
  cwd: string
  model: string
  provider: string
  /** The run's stage, when a command with stages made it (`plan`, `code`). */
  label?: string
  /**
   * The run has a conversation of its own (a stage's, a sub-session's), not the one before it:
   * from here on the session's conversation is this run's.
   */
  new_conversation?: true
}

export interface SavedToolCall {
  id: string
  name: string
  /** The arguments exactly as the model sent them. */
  arguments: string
}

/**
 * A message of the conversation (the agent's system prompt is not one: each run builds its own).
 * Images are kept inline, base64, as the model got them: a resumed run must send the same
 * conversation though the file changed or is gone (up to 5 MB a picture, a third more as base64;
 * a compaction's `history` line leaves them out).
 */
export type MessageLine =
  | {type: 'system'; at?: string; content: string}
  | {type: 'user'; at?: string; content: string; images?: ImagePart[]}
  | {type: 'assistant'; at?: string; content: string; tool_calls: SavedToolCall[]; reasoning?: ReasoningBlock[]}
  | {
      type: 'tool_result'
      at?: string
      tool_call_id: string
      tool_name: string
      content: string
      is_error: boolean
      images?: ImagePart[]
    }

/** One model request: `turn` is the loop's turn it belongs to (1-based, per run; 0 outside a run, as for `/compact`). */
export interface UsageLine {
  type: 'usage'
  at: string
  turn: number
  model: string
  /** The provider the request went to (what its price is looked up by); absent in transcripts before it was kept. */
  provider?: string
  input_tokens: number
  output_tokens: number
  /** Of `input_tokens`, read from or written to the prompt cache, when the server said (and above zero). */
  cache_read_tokens?: number
  cache_write_tokens?: number
  /** What made the request, when not a run's turn (absent in transcripts before it was kept). */
  kind?: Exclude<RequestKind, 'turn'>
}

/** The conversation was rewritten (compaction replaced earlier messages): it is `messages` from here on. */
export interface HistoryLine {
  type: 'history'
  at: string
  messages: MessageLine[]
  /** Why the conversation was replaced; absent: a compaction (or a line written before causes were). */
  cause?: 'rewound' | 'forked'
}

/** A compaction, as the compactor reported it; the conversation it left follows as a `history` line. */
export interface CompactionLine {
  type: 'compaction'
  at: string
  strategy: string
  compacted_count: number
  tokens_saved: number
  fallback_reason?: string
}

/** The plan changed (a todo_write call): the whole list from here on, what `--continue` and `sessions show` know of it. */
export interface TodosLine {
  type: 'todos'
  at: string
  todos: TodoItem[]
}

/** The plan as the session's last todo_write call left it; empty when it never wrote one. */
export function lastPlan(lines: readonly TranscriptLine[]): TodoItem[] {
  return lines.findLast((line): line is TodosLine => line.type === 'todos')?.todos ?? []
}

export type RunStop = 'completed' | 'max_turns' | 'max_tokens' | 'cancelled' | 'budget' | 'error'

export interface EndLine {
  type: 'end'
  at: string
  stop: RunStop
  turns: number
  /** This run's tokens. */
  usage: {input_tokens: number; output_tokens: number}
  error?: string
}

export type TranscriptLine =
  SessionHeader | RunLine | MessageLine | UsageLine | HistoryLine | CompactionLine | TodosLine | EndLine

export function toLine(message: Message, at?: string): MessageLine {
  switch (message.role) {
    case 'system': {
      return {at, content: message.content, type: message.role}
    }

    case 'user': {
      return {at, content: message.content, type: 'user', ...(message.images && {images: message.images})}
    }

    case 'assistant': {
      const calls = message.toolCalls.map(({arguments: args, id, name}) => ({arguments: args, id, name}))
      // Signed reasoning goes back with its reply's tool calls (Anthropic refuses the turn without it).
      return {
        at,
        content: message.content,
        tool_calls: calls,
        type: 'assistant',
        ...(message.reasoning && {reasoning: message.reasoning}),
      }
    }

    case 'tool': {
      return {
        at,
        content: message.content,
        is_error: message.isError,
        tool_call_id: message.toolCallId,
        tool_name: message.toolName,
        type: 'tool_result',
        ...(message.images && {images: message.images}),
      }
    }
  }
}

export function isMessageLine(line: {type: string}): line is MessageLine {
  return line.type === 'system' || line.type === 'user' || line.type === 'assistant' || line.type === 'tool_result'
}
