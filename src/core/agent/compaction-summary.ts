import type {TodoItem} from '@hanzo-dev/sdk'

import {parseJsonText} from '../config/json-text.js'
import {stripThinkBlock} from './think.js'
import type {ApiClient, Message, Usage} from './types.js'

/**
 * The message that stands for the compacted part of a history (HIP-301 §5), and the two ways
 * to write it: the model's own summary, or, when that call fails, a deterministic digest.
 *
 * The summary is a user message, not the HIP's assistant message: Anthropic wants the first
 * message after the system prompt to be the user's, and an assistant message answering nothing
 * reads to a model as something it said. It starts with SUMMARY_MARKER, a line every
 * implementation writes, so a later compaction knows it for a summary (and compacts it again
 * with what followed it rather than counting it as the user's request).
 */
export const SUMMARY_MARKER = '[Summary of earlier conversation]'

/** What a compacted tool result is replaced with (HIP-301 §5 step 4). */
export const COMPACTED = '[compacted]'

/** The summary message; `plan`, the todo list as the compacted range left it, follows the summary verbatim. */
export function summaryMessage(body: string, plan?: readonly TodoItem[]): Message {
  const todos = plan?.length
    ? `\n\n${PLAN_HEADING}\n${plan.map(({content, status}) => `- [${status}] ${content}`).join('\n')}`
    : ''
  return {content: `${SUMMARY_MARKER}\n${body}${todos}`, role: 'user'}
}

const PLAN_HEADING = '## The plan (todo_write), as it stood'

/**
 * The todo list of the last successful todo_write call among `messages`, when there is one: a
 * compaction carries it verbatim, as a summary might drop a step the model has yet to do.
 */
export function latestPlan(messages: readonly Message[]): TodoItem[] | undefined {
  const failed = new Set<string>()
  for (const message of messages) if (message.role === 'tool' && message.isError) failed.add(message.toolCallId)
  for (const message of messages.toReversed()) {
    if (message.role !== 'assistant') continue
    const call = message.toolCalls.findLast((c) => c.name === 'todo_write' && !failed.has(c.id))
    if (!call) continue
    try {
      const {todos} = parseJsonText(call.arguments) as {todos?: TodoItem[]}
      if (Array.isArray(todos)) return todos
    } catch {
      // Arguments that were not JSON ran no plan: an earlier call's is the one that stands.
    }
  }

  return undefined
}

export function isSummary(message: Message): boolean {
  return message.role === 'user' && message.content.startsWith(SUMMARY_MARKER)
}

/** A summary's text without its marker line, for nesting it in the next summary. */
function summaryBody(message: Message): string {
  return message.content.slice(SUMMARY_MARKER.length).trimStart()
}

/** Writes the summary of a transcript (one model call), or throws. */
export type Summarizer = (transcript: string, signal?: AbortSignal) => Promise<{text: string; usage?: Usage}>

export const SUMMARY_SYSTEM_PROMPT = `You compact the conversation of a coding agent to free its context. Your summary replaces the transcript you are given: the agent continues from the summary alone, so leave out nothing it needs and nothing else. Write these sections, in this order:

## User goals and constraints
Every request and constraint the user stated, quoted verbatim.
## Pending instructions
Every instruction of the user not yet carried out (do X next, always Y, never Z), quoted verbatim, and what each waits for.
## Decisions
What was decided or agreed, and why.
## Files touched
Each file read, created or changed, with what changed.
## What failed
Errors, failed commands and abandoned approaches, and whether each was resolved.
## State
Where the work stands and what remains to do.

Answer with the summary only.`

// The summarizer reads every message, but a tool result only up to here: enough to see what
// it was and whether it failed, and the transcript stays smaller than what it replaces.
const RESULT_PREVIEW_CHARS = 1000
// A call's arguments (a whole file for fs_write) are cut in the digest, which has no model to
// shorten them.
const ARGUMENTS_PREVIEW_CHARS = 200

function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}[... ${text.length - limit} more characters]`
}

/** The compacted messages as a plain-text transcript, the input of the summary call. */
export function renderTranscript(messages: readonly Message[]): string {
  const lines: string[] = []
  for (const message of messages) {
    switch (message.role) {
      case 'system': {
        lines.push(`System: ${message.content}`)
        break
      }

      case 'user': {
        lines.push(
          isSummary(message) ? `Summary of what came before:\n${summaryBody(message)}` : `User: ${message.content}`,
        )
        break
      }

      case 'assistant': {
        if (message.content) lines.push(`Assistant: ${message.content}`)
        for (const call of message.toolCalls) lines.push(`Assistant called ${call.name} ${call.arguments || '{}'}`)
        break
      }

      case 'tool': {
        const status = message.isError ? ', failed' : ''
        lines.push(`Result of ${message.toolName}${status}: ${clip(message.content, RESULT_PREVIEW_CHARS)}`)
        break
      }
    }
  }

  return lines.join('\n\n')
}

/**
 * The truncation fallback: what the user asked, verbatim (their goals and constraints), an
 * earlier summary as it was, and the tool calls made, their results `[compacted]`, in order.
 * What the assistant said is dropped: it is what the model would have summarized.
 */
export function truncationDigest(messages: readonly Message[], reason: string): string {
  const failed = new Set<string>()
  for (const message of messages) if (message.role === 'tool' && message.isError) failed.add(message.toolCallId)
  const lines = [
    `${messages.length} earlier messages were compacted without a model summary (${reason}). The user's messages, verbatim, and the tool calls made, in order:`,
  ]
  for (const message of messages) {
    if (message.role === 'user')
      lines.push(isSummary(message) ? `Earlier summary:\n${summaryBody(message)}` : `User: ${message.content}`)
    if (message.role !== 'assistant') continue
    for (const call of message.toolCalls) {
      lines.push(
        `Tool call: ${call.name} ${clip(call.arguments || '{}', ARGUMENTS_PREVIEW_CHARS)} -> ${COMPACTED}${failed.has(call.id) ? ' (failed)' : ''}`,
      )
    }
  }

  return lines.join('\n\n')
}

/**
 * The summary through the session's own model: a dedicated request with the summary prompt,
 * the transcript as the user's message, and no tools. A failed stream throws (its ModelError);
 * a leading think block is not part of the summary. `focus` (`/compact FOCUS`) is what the user
 * asked the summary to keep above all.
 */
export function modelSummarizer(client: ApiClient, model: string, focus?: string): Summarizer {
  const system = focus?.trim()
    ? `${SUMMARY_SYSTEM_PROMPT}\n\nThe user asked the summary to focus on: ${focus.trim()}`
    : SUMMARY_SYSTEM_PROMPT
  return async (transcript, signal) => {
    const messages: Message[] = [
      {content: system, role: 'system'},
      {content: transcript, role: 'user'},
    ]
    const usage: Usage = {inputTokens: 0, outputTokens: 0}
    let text = ''
    for await (const event of client.sendMessage(messages, [], {model, signal})) {
      if (event.type === 'content_delta') text += event.text
      else if (event.type === 'usage') {
        usage.inputTokens += event.usage.inputTokens
        usage.outputTokens += event.usage.outputTokens
      } else if (event.type === 'error') throw event.error
    }

    return {text: stripThinkBlock(text), usage}
  }
}
