import type {JsonSchema, ToolResult} from '@hanzo-dev/sdk'

import type {AllowAdvice} from '../permissions/allow-advice.js'

/**
 * The agent loop's ports (HIP-301 §2): the model behind `ApiClient`, the tools behind
 * `ToolExecutor`, the user behind `PermissionPrompter`. The loop sees only these, so tests and
 * the `--fake-model` flag swap the model for a script, and the CLI and the library run the
 * same loop.
 */

/** A tool call as the model asked for it. */
export interface ToolCallRequest {
  /** The provider's call id (`call_...`, `toolu_...`), echoed back with the result. */
  id: string
  name: string
  /** The arguments parsed as a JSON object; `{}` when they were not valid JSON (see `arguments`). */
  input: Record<string, unknown>
  /** The arguments exactly as the model sent them: a parse failure goes back to the model. */
  arguments: string
}

/**
 * Reasoning a provider signs and needs back unchanged with the reply it came in: Anthropic's
 * thinking blocks, which must accompany a reply's tool calls when they are sent back. Never
 * shown and never part of the reply's text.
 */
export type ReasoningBlock = {type: 'thinking'; thinking: string; signature: string} | {type: 'redacted_thinking'; data: string}

/** The conversation, provider-neutral; adapters translate it to each wire format. */
export type Message =
  | {role: 'system'; content: string}
  | {role: 'user'; content: string}
  | {role: 'assistant'; content: string; toolCalls: ToolCallRequest[]; reasoning?: ReasoningBlock[]}
  | {role: 'tool'; toolCallId: string; toolName: string; content: string; isError: boolean}

export interface Usage {
  inputTokens: number
  outputTokens: number
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'other'

/**
 * What a model stream yields, in order: text deltas and tool calls as they complete, usage when
 * known, then one `message_stop` (or one `error`, which ends the stream).
 */
export type StreamEvent =
  | {type: 'content_delta'; text: string}
  | {type: 'tool_use'; call: ToolCallRequest}
  | {type: 'usage'; usage: Usage}
  | {type: 'message_stop'; stopReason: StopReason; raw?: unknown; reasoning?: ReasoningBlock[]}
  | {type: 'error'; error: ModelError}

/** A tool as the model is told about it. */
export interface ModelToolSpec {
  name: string
  description: string
  inputSchema: JsonSchema
}

export interface SendOptions {
  model: string
  /** Ends the request and the stream: Ctrl-C, or the caller gave up. */
  signal?: AbortSignal
  maxTokens?: number
}

export interface ApiClient {
  sendMessage(messages: readonly Message[], tools: readonly ModelToolSpec[], options: SendOptions): AsyncIterable<StreamEvent>
}

/**
 * A failure of the model call that ends the turn (the agent cannot go on without a reply), as
 * opposed to a tool's error, which goes back to the model. `message` is the server's own
 * message when there is one; never a credential.
 */
export class ModelError extends Error {
  /** The HTTP status, when the server answered. */
  readonly status?: number
  /**
   * The server's error code or type (`insufficient_quota`, `overloaded_error`) when it gave one,
   * else the client's own (`ECONNREFUSED`, `ENOTFOUND`, `ETIMEDOUT`, `invalid_base_url`).
   */
  readonly code?: string
  /** Where the request went (base URL without credentials), for "is the server up?" hints. */
  readonly endpoint?: string

  constructor(message: string, options: {status?: number; code?: string; endpoint?: string; cause?: unknown} = {}) {
    super(message, {cause: options.cause})
    this.name = 'ModelError'
    this.status = options.status
    this.code = options.code
    this.endpoint = options.endpoint
  }
}

/** HIP-301 §2 PermissionDecision, as a discriminated union. */
export type PermissionDecision =
  | {type: 'allow'; scope?: 'once' | 'session'}
  | {type: 'deny'; reason: string}
  | {type: 'escalate'}

/** What the gate knows of a call it asks about, besides the call (HIP-301's prompter gets the call only). */
export interface PermissionRequestContext {
  /** How the call could be allowed without asking next time. */
  advice: AllowAdvice
}

export interface PermissionPrompter {
  requestPermission(toolName: string, input: Record<string, unknown>, context?: PermissionRequestContext): Promise<PermissionDecision>
}

export interface ToolExecutor {
  execute(name: string, input: Record<string, unknown>, sessionId: string, signal?: AbortSignal): Promise<ToolResult>
}
