import {Buffer} from 'node:buffer'

import type {Message} from './types.js'

/**
 * Token counts for the compaction budget (HIP-301 §5). No tokenizer ships with hanzo-dev (one
 * per model family, and most of the models it talks to — Ollama, llama.cpp, gateways — do not
 * say which), so the count is an estimate, the same in every implementation (the
 * session-compaction vectors pin it):
 *
 *   tokens(message) = 4 + ceil(B(content) / 4)
 *                     + for each tool call of an assistant message: 4 + ceil((B(name) + B(arguments)) / 4)
 *                     + 1600 for each image of a user message or a tool result
 *
 * where B is the UTF-8 byte length. Four bytes per token is the usual rule for English and code
 * with BPE tokenizers (cl100k, o200k, Claude's); counting bytes rather than characters makes
 * non-Latin text (3 bytes a character in CJK) count more, as it does in those tokenizers, and is
 * the same number in JavaScript, Python and Rust. The 4 per message (and per call) stand for
 * the role and separators of the chat templates. Tool definitions are not counted: they are
 * not part of the history compaction can shrink. Nor are an assistant message's `reasoning`
 * blocks: Anthropic, the one provider that takes them back, leaves those of earlier turns out
 * of the context window.
 */
export const BYTES_PER_TOKEN = 4
export const MESSAGE_OVERHEAD_TOKENS = 4

/**
 * An image's tokens, whatever its base64's length: about what Anthropic and OpenAI charge for a
 * picture of a megapixel or so, which they scale larger ones down to.
 */
const IMAGE_TOKENS = 1600

// Messages are never changed once in a history (the loop and the compactor make new ones), so
// a message's count is computed once, whatever the number of times the history is summed.
const counts = new WeakMap<Message, number>()

const bytesToTokens = (bytes: number) => Math.ceil(bytes / BYTES_PER_TOKEN)

/** The estimate for a text outside any message (a section of the system prompt, a tool's schema). */
export const textTokens = (text: string) => bytesToTokens(Buffer.byteLength(text, 'utf8'))

/** The estimate for one tool as it is offered: its name, description and input schema. */
export const toolSchemaTokens = (tool: {description: string; inputSchema: unknown; name: string}) =>
  textTokens(JSON.stringify({description: tool.description, inputSchema: tool.inputSchema, name: tool.name}))

function estimate(message: Message): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + bytesToTokens(Buffer.byteLength(message.content, 'utf8'))
  if ((message.role === 'user' || message.role === 'tool') && message.images)
    tokens += message.images.length * IMAGE_TOKENS
  if (message.role === 'assistant') {
    for (const call of message.toolCalls) {
      tokens +=
        MESSAGE_OVERHEAD_TOKENS +
        bytesToTokens(Buffer.byteLength(call.name, 'utf8') + Buffer.byteLength(call.arguments, 'utf8'))
    }
  }

  return tokens
}

/** The estimated tokens of one message, computed on first use and kept with the message. */
export function messageTokens(message: Message): number {
  let tokens = counts.get(message)
  if (tokens === undefined) {
    tokens = estimate(message)
    counts.set(message, tokens)
  }

  return tokens
}

/** The estimated tokens of a whole history (each message estimated once, ever). */
export function historyTokens(messages: readonly Message[]): number {
  let total = 0
  for (const message of messages) total += messageTokens(message)
  return total
}

/**
 * A running total over a history that grows by appending, as the agent loop's does: `sync`
 * costs O(the messages appended since the last call), not O(the history). After a history is
 * rewritten in place (compacted), `reset` makes the next `sync` sum it again from the
 * per-message counts.
 */
export class TokenLedger {
  private total = 0
  private counted = 0

  /** The history's estimated tokens now. */
  sync(messages: readonly Message[]): number {
    if (messages.length < this.counted) this.reset()
    for (let i = this.counted; i < messages.length; i++) this.total += messageTokens(messages[i])
    this.counted = messages.length
    return this.total
  }

  reset(): void {
    this.total = 0
    this.counted = 0
  }
}
