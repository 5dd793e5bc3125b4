import type {
  FileChange,
  JsonSchema,
  Message,
  PermissionDecision,
  ReasoningBlock,
  ToolCallRequest,
  ToolKind,
  ToolResult,
  Usage,
} from '@hanzo-dev/sdk'

import type {AllowAdvice} from '../permissions/allow-advice.js'
import type {CallDescriber} from './turn-items.js'

/**
 * The agent loop's ports (HIP-301 §2): the model behind `ApiClient`, the tools behind
 * `ToolExecutor`, the user behind `PermissionPrompter`. The loop sees only these, so tests and
 * the `--fake-model` flag swap the model for a script, and the CLI and the library run the
 * same loop.
 */

// The conversation's types are the sdk's: plugin commands that open an agent session see the same ones.
export type {Message, PermissionDecision, ReasoningBlock, ToolCallRequest, Usage} from '@hanzo-dev/sdk'

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
  sendMessage(
    messages: readonly Message[],
    tools: readonly ModelToolSpec[],
    options: SendOptions,
  ): AsyncIterable<StreamEvent>
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

/** What the gate knows of a call it asks about, besides the call (HIP-301's prompter gets the call only). */
export interface PermissionRequestContext {
  /** How the call could be allowed without asking next time. */
  advice: AllowAdvice
  /** What "allow for this session" allows, in words for "allow <sessionScope> for this session" (session-approvals.ts). */
  sessionScope?: string
  /** Why this call is asked about though a rule allows it (the tool changed since it was approved). */
  notice?: string
  /** The call in one line, as its tool describes it. */
  title?: string
  /** What the call would change, as its tool previews it: shown before the question. */
  preview?: () => Promise<FileChange[]>
  /** What kind of call it is (its tool says): the chat's accept-edits mode answers `edit` calls itself. */
  kind?: ToolKind
  /** True when the call names a path and it resolves inside the workspace (symlinks and `..` followed). */
  inWorkspace?: boolean
}

export interface PermissionPrompter {
  requestPermission(
    toolName: string,
    input: Record<string, unknown>,
    context?: PermissionRequestContext,
  ): Promise<PermissionDecision>
}

export interface ToolExecutor {
  execute(name: string, input: Record<string, unknown>, sessionId: string, signal?: AbortSignal): Promise<ToolResult>
  /** What a call's tool says of it, for the run's items (turn-items.ts); undefined for a tool it does not know. */
  describe?: CallDescriber
}
