import type {UsageTotals} from '@hanzo-dev/sdk'
import * as z from 'zod'

import {ElicitationRequestParams, ElicitationRequestResult} from './elicitation-request.js'

/**
 * The app server's protocol, defined once: these zod schemas validate what clients send, their
 * `z.infer` types are what the server's code uses, and `protocolJsonSchema()` turns them into the
 * JSON Schema committed as docs/app-server.schema.json (`app-server --print-schema`; a snapshot
 * test fails when the two differ). Params are strict: an unknown key is a -32602, not ignored.
 */

export const PROTOCOL_VERSION = 1

const sessionId = z
  .string()
  .min(1)
  .describe('A session id (a UUID; a unique start of one is accepted where a saved session is looked up).')
const turnId = z.string().describe('The turn, unique in the server (turn/start returns it).')
const permissionMode = z
  .enum(['prompt', 'allow-reads', 'deny', 'allow-all'])
  .describe(
    'What the permission rules leave open: prompt asks the client (permission/request), allow-reads runs tools that change nothing, deny never asks, allow-all runs everything no rule denies.',
  )
  .meta({id: 'PermissionMode'})

const usage = z
  .object({
    inputTokens: z.number().int().describe('All the input, what the prompt cache read or wrote included.'),
    outputTokens: z.number().int(),
    cacheReadTokens: z.number().int().optional().describe('Of the input, read from the prompt cache, when above zero.'),
    cacheWriteTokens: z
      .number()
      .int()
      .optional()
      .describe('Of the input, written to the prompt cache, when above zero.'),
    costUsd: z
      .number()
      .optional()
      .describe('Absent when a model has no price (from the model catalog or the pricing setting).'),
  })
  .meta({id: 'Usage'})

/** A usage total (cached counts and cost when there are some) as the protocol says it. */
export function protocolUsage(totals: UsageTotals): z.infer<typeof usage> {
  const {cache_read_tokens: read, cache_write_tokens: write, cost_usd: costUsd} = totals
  return {
    inputTokens: totals.input_tokens,
    outputTokens: totals.output_tokens,
    ...(read === undefined ? {} : {cacheReadTokens: read}),
    ...(write === undefined ? {} : {cacheWriteTokens: write}),
    ...(costUsd === undefined ? {} : {costUsd}),
  }
}

// ---- client -> server requests

export const InitializeParams = z
  .strictObject({
    clientInfo: z.strictObject({name: z.string(), version: z.string().optional()}).optional(),
    protocolVersion: z
      .number()
      .int()
      .optional()
      .describe('The protocol version the client speaks; the server answers with its own.'),
  })
  .meta({id: 'InitializeParams'})
export const InitializeResult = z
  .object({
    serverInfo: z.object({name: z.literal('hanzo-dev'), version: z.string()}),
    protocolVersion: z.literal(PROTOCOL_VERSION),
    methods: z.array(z.string()).describe('The methods this server answers.'),
  })
  .meta({id: 'InitializeResult'})

const sessionOptions = {
  cwd: z
    .string()
    .optional()
    .describe(
      "The workspace (an absolute path to a directory); default: the server's directory, or a resumed session's project.",
    ),
  model: z.string().optional().describe('Default: the model setting.'),
  permissionMode: permissionMode.optional().describe('Default: prompt.'),
}

export const SessionStartParams = z.strictObject(sessionOptions).meta({id: 'SessionStartParams'})
export const SessionResumeParams = z
  .strictObject({
    sessionId,
    ...sessionOptions,
    fork: z
      .boolean()
      .optional()
      .describe(
        'Open a new session (a new sessionId) from a copy of the saved conversation, which is left as it is. Default: false.',
      ),
  })
  .meta({id: 'SessionResumeParams'})
export const SessionInfo = z
  .object({
    sessionId: z.string(),
    cwd: z.string(),
    model: z.string(),
    permissionMode,
    tools: z.array(z.string()).describe('The tools the model is offered.'),
  })
  .meta({id: 'SessionInfo'})

export const SessionListParams = z
  .strictObject({limit: z.number().int().min(1).max(1000).optional().describe('Default 50.')})
  .meta({id: 'SessionListParams'})
export const SessionSummary = z
  .object({
    sessionId: z.string(),
    projectRoot: z.string(),
    model: z.string(),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional(),
    runs: z.number().int().describe('Runs of the saved session (each turn is one).'),
    turns: z.number().int().describe('Model requests, all runs together.'),
    firstPrompt: z.string().optional(),
    lastStop: z.string().optional(),
    usage,
    live: z.boolean().describe('Open in this server now (a turn can start without session/resume).'),
  })
  .meta({id: 'SessionSummary'})
export const SessionListResult = z
  .object({sessions: z.array(SessionSummary).describe('Newest first.')})
  .meta({id: 'SessionListResult'})

export const SessionReadParams = z.strictObject({sessionId}).meta({id: 'SessionReadParams'})
const imageSummary = z
  .object({
    mediaType: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
    bytes: z.number().int().describe('Its size decoded.'),
    name: z.string().describe('Where it came from (a path).'),
  })
  .describe('An image the model saw, described: its bytes are not sent.')
  .meta({id: 'ImageSummary'})
const images = z.array(imageSummary).optional()
const toolCall = z.object({
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
  arguments: z.string(),
})
export const ConversationMessage = z
  .discriminatedUnion('role', [
    z.object({role: z.literal('system'), content: z.string()}),
    z.object({role: z.literal('user'), content: z.string(), images: images.describe('Attached to the prompt.')}),
    z.object({role: z.literal('assistant'), content: z.string(), toolCalls: z.array(toolCall)}),
    z.object({
      role: z.literal('tool'),
      toolCallId: z.string(),
      toolName: z.string(),
      content: z.string(),
      isError: z.boolean(),
      images: images.describe('Returned by the tool, for the model to see (fs_read of a picture).'),
    }),
  ])
  .meta({id: 'ConversationMessage'})
export const SessionReadResult = z
  .object({
    session: SessionSummary,
    messages: z.array(ConversationMessage).describe('The conversation a resume carries on.'),
  })
  .meta({id: 'SessionReadResult'})

export const SessionRewindParams = z
  .strictObject({
    sessionId,
    to: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Rewind to just before this prompt (1 is the first). Default: the last prompt.'),
    code: z.boolean().optional().describe('Put back the files the agent changed since. Default: true.'),
    conversation: z.boolean().optional().describe('Cut the conversation back. Default: true.'),
    dryRun: z.boolean().optional().describe('Only say what the rewind would do. Default: false.'),
  })
  .meta({id: 'SessionRewindParams'})
const codeDiff = z
  .object({
    modified: z.array(z.string()).describe('Changed since: their content comes back.'),
    created: z.array(z.string()).describe('Created since: removed.'),
    deleted: z.array(z.string()).describe('Deleted since: brought back.'),
    notKept: z
      .array(z.string())
      .describe('Changed since, but over the size cap (checkpoints.max_file_bytes) then: left as they are.'),
  })
  .describe('Workspace-relative paths, sorted.')
  .meta({id: 'CodeDiff'})
export const SessionRewindResult = z
  .object({
    sessionId: z.string(),
    to: z.number().int().describe('The prompt the session goes back to just before.'),
    prompts: z
      .array(z.object({number: z.number().int(), text: z.string()}))
      .describe("The session's prompts, 1-based: what `to` can be."),
    code: codeDiff.nullable().describe('What restoring the files would change; null when code is false.'),
    conversation: z
      .object({messagesNow: z.number().int(), messagesBefore: z.number().int()})
      .nullable()
      .describe('The messages now and after the rewind; null when conversation is false.'),
    rewound: z
      .object({
        code: codeDiff.nullable().describe('The files changed.'),
        conversation: z.boolean().describe('The conversation was cut back.'),
      })
      .nullable()
      .describe('What was done; null for a dryRun.'),
  })
  .meta({id: 'SessionRewindResult'})

export const TurnStartParams = z
  .strictObject({sessionId, input: z.string().min(1).describe("The user's message.")})
  .meta({id: 'TurnStartParams'})
export const TurnStartResult = z.object({turnId}).meta({id: 'TurnStartResult'})
export const TurnInterruptParams = z.strictObject({sessionId}).meta({id: 'TurnInterruptParams'})
export const TurnInterruptResult = z
  .object({interrupted: z.boolean().describe('false: no turn was running.')})
  .meta({id: 'TurnInterruptResult'})

export const ToolsListParams = z.strictObject({sessionId}).meta({id: 'ToolsListParams'})
export const ToolsListResult = z
  .object({
    tools: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        inputSchema: z.record(z.string(), z.unknown()),
        mutating: z.boolean().describe('As the permission step treats it.'),
      }),
    ),
  })
  .meta({id: 'ToolsListResult'})

export const ConfigReadParams = z
  .strictObject({cwd: z.string().optional().describe("Whose project settings count; default the server's directory.")})
  .meta({id: 'ConfigReadParams'})
export const ConfigReadResult = z
  .object({
    projectRoot: z.string(),
    config: z
      .record(z.string(), z.unknown())
      .describe('The merged settings, secrets redacted (as `hanzo-dev config list` shows them).'),
  })
  .meta({id: 'ConfigReadResult'})

// ---- server -> client notifications

const toolResult = z.object({
  output: z.string(),
  error: z.string().nullable(),
  isError: z.boolean(),
  images: images.describe('Returned by the tool, for the model to see (fs_read of a picture).'),
})
export const TurnItem = z
  .discriminatedUnion('type', [
    z.object({
      type: z.literal('agent_message'),
      id: z.string(),
      text: z.string().describe('The whole text on item/completed; empty on item/started.'),
    }),
    z.object({
      type: z.literal('tool_call'),
      id: z.string().describe("The model's call id."),
      name: z.string(),
      input: z.record(z.string(), z.unknown()),
      kind: z.enum(['read', 'edit', 'execute', 'fetch', 'think', 'other']).describe('What the tool says it does.'),
      title: z.string().describe('The call in one line, as its tool describes it.'),
      result: toolResult.optional().describe('On item/completed.'),
      command: z.string().optional().describe('The command line, for a call that runs one.'),
      exitCode: z
        .number()
        .nullable()
        .optional()
        .describe('On item/completed of a command, as its tool reported it: null when it did not exit on its own.'),
      files: z
        .array(z.object({path: z.string(), change: z.enum(['added', 'modified', 'deleted'])}))
        .optional()
        .describe('On item/completed of an edit, the files it changed, as its tool reported them.'),
    }),
    z.object({
      type: z.literal('compaction'),
      id: z.string(),
      status: z.enum(['running', 'completed']).describe('item/started: running; item/completed: completed.'),
      tokensBefore: z.number().describe("The history's estimated tokens when it started."),
      budget: z
        .number()
        .describe("The conversation's token budget (max_tokens or the context window); it starts past 90%."),
      strategy: z.enum(['summary', 'truncation']).optional().describe('Completed only, as are the fields below.'),
      compactedCount: z.number().optional().describe('Messages the summary replaced.'),
      compactedTokens: z.number().optional().describe('Their estimated tokens.'),
      tokensSaved: z.number().optional().describe('Estimated.'),
      kept: z
        .object({
          systemPrompt: z.boolean(),
          latestRequest: z.boolean(),
          recentTurns: z.number(),
          todos: z.number().describe('Steps of the plan carried verbatim.'),
        })
        .optional()
        .describe('What stayed verbatim around the summary.'),
      fallbackReason: z.string().optional().describe('Why there is no model summary (truncation).'),
    }),
    z.object({
      type: z.literal('todo_list'),
      id: z.string(),
      todos: z
        .array(
          z.object({
            content: z.string(),
            status: z.enum(['pending', 'in_progress', 'completed']),
            activeForm: z.string().optional().describe('The step as it reads while being done.'),
          }),
        )
        .describe('The whole plan as the model left it (todo_write); each such item replaces the last.'),
    }),
  ])
  .meta({id: 'TurnItem'})

const inTurn = {sessionId: z.string(), turnId: z.string()}
export const TurnStartedParams = z.object(inTurn).meta({id: 'TurnStartedParams'})
export const ItemStartedParams = z.object({...inTurn, item: TurnItem}).meta({id: 'ItemStartedParams'})
export const ItemDeltaParams = z.object({...inTurn, itemId: z.string(), text: z.string()}).meta({id: 'ItemDeltaParams'})
export const ItemCompletedParams = z.object({...inTurn, item: TurnItem}).meta({id: 'ItemCompletedParams'})
export const StopReason = z
  .enum(['completed', 'max_turns', 'max_tokens', 'cancelled', 'budget', 'error'])
  .describe(
    "cancelled: turn/interrupt, or the connection closed; budget: the session's maxBudgetUsd was spent; error: an error notification said why.",
  )
  .meta({id: 'StopReason'})
export const TurnCompletedParams = z
  .object({...inTurn, stopReason: StopReason, usage, finalOutput: z.string().describe("The last reply's text.")})
  .meta({id: 'TurnCompletedParams'})
export const ErrorParams = z
  .object({
    sessionId: z.string().optional(),
    turnId: z.string().optional(),
    message: z.string(),
    hint: z.string().optional().describe('What to try.'),
  })
  .meta({id: 'ErrorParams'})

// ---- server -> client requests

export const PermissionRequestParams = z
  .object({
    ...inTurn,
    toolName: z.string(),
    input: z.record(z.string(), z.unknown()),
    title: z.string().optional().describe('The call in one line, as its tool describes it.'),
    notice: z.string().optional().describe('Why a call a rule allows is asked about.'),
    rules: z
      .array(z.string())
      .optional()
      .describe('Rules that would allow such calls without asking (for a settings file).'),
  })
  .meta({id: 'PermissionRequestParams'})
export const PermissionRequestResult = z
  .strictObject({
    decision: z
      .enum(['allow', 'allow_session', 'deny'])
      .describe('allow_session: this call and the like of it for the rest of the session.'),
    reason: z.string().optional().describe('For deny: told to the model.'),
  })
  .meta({id: 'PermissionRequestResult'})

/** Each client -> server method: its params, and the result it answers with. */
export const CLIENT_METHODS = {
  initialize: {params: InitializeParams, result: InitializeResult},
  'session/start': {params: SessionStartParams, result: SessionInfo},
  'session/resume': {params: SessionResumeParams, result: SessionInfo},
  'session/list': {params: SessionListParams, result: SessionListResult},
  'session/read': {params: SessionReadParams, result: SessionReadResult},
  'session/rewind': {params: SessionRewindParams, result: SessionRewindResult},
  'turn/start': {params: TurnStartParams, result: TurnStartResult},
  'turn/interrupt': {params: TurnInterruptParams, result: TurnInterruptResult},
  'tools/list': {params: ToolsListParams, result: ToolsListResult},
  'config/read': {params: ConfigReadParams, result: ConfigReadResult},
} as const

export const SERVER_NOTIFICATIONS = {
  'turn/started': TurnStartedParams,
  'item/started': ItemStartedParams,
  'item/delta': ItemDeltaParams,
  'item/completed': ItemCompletedParams,
  'turn/completed': TurnCompletedParams,
  error: ErrorParams,
} as const

export const SERVER_REQUESTS = {
  'permission/request': {params: PermissionRequestParams, result: PermissionRequestResult},
  'elicitation/request': {params: ElicitationRequestParams, result: ElicitationRequestResult},
} as const

export type ClientMethod = keyof typeof CLIENT_METHODS
export type ParamsOf<M extends ClientMethod> = z.infer<(typeof CLIENT_METHODS)[M]['params']>
export type ResultOf<M extends ClientMethod> = z.infer<(typeof CLIENT_METHODS)[M]['result']>
export type ServerNotification = keyof typeof SERVER_NOTIFICATIONS
export type NotificationParams<N extends ServerNotification> = z.infer<(typeof SERVER_NOTIFICATIONS)[N]>
export type TurnItem = z.infer<typeof TurnItem>
export type PermissionRequest = z.infer<typeof PermissionRequestParams>
export type PermissionAnswer = z.infer<typeof PermissionRequestResult>
export type SessionInfo = z.infer<typeof SessionInfo>
export type SessionSummary = z.infer<typeof SessionSummary>
export type Usage = z.infer<typeof usage>

/** Params checked against the method's schema: the parsed value, or what is wrong (for -32602). */
export function parseParams<M extends ClientMethod>(
  method: M,
  params: unknown,
): {ok: true; value: ParamsOf<M>} | {ok: false; message: string} {
  const parsed = CLIENT_METHODS[method].params.safeParse(params ?? {})
  if (parsed.success) return {ok: true, value: parsed.data as ParamsOf<M>}
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'params'}: ${issue.message}`,
  )
  return {message: `Invalid params for ${method}: ${problems.join('; ')}`, ok: false}
}

/** A client's answer to permission/request, or undefined when it is not one. */
export function parsePermissionAnswer(result: unknown): PermissionAnswer | undefined {
  const parsed = PermissionRequestResult.safeParse(result)
  return parsed.success ? parsed.data : undefined
}

/** The whole protocol as one JSON Schema document: every message type under $defs, and the method tables. */
export function protocolJsonSchema(): Record<string, unknown> {
  const pairs = (table: Record<string, {params: z.ZodType; result: z.ZodType}>) =>
    z.object(
      Object.fromEntries(
        Object.entries(table).map(([method, {params, result}]) => [method, z.object({params, result})]),
      ),
    )
  const document = z
    .object({
      clientRequests: pairs(CLIENT_METHODS),
      serverNotifications: z.object(
        Object.fromEntries(
          Object.entries(SERVER_NOTIFICATIONS).map(([method, params]) => [method, z.object({params})]),
        ),
      ),
      serverRequests: pairs(SERVER_REQUESTS),
    })
    .meta({
      description: `JSON-RPC 2.0 methods of \`hanzo-dev app-server\`, protocol version ${PROTOCOL_VERSION} (docs/app-server.md). Generated from src/server/app/protocol.ts: do not edit.`,
      title: 'hanzo-dev app-server protocol',
    })
  return z.toJSONSchema(document, {target: 'draft-2020-12'}) as Record<string, unknown>
}
