import type {ElicitationAnswer, ElicitationRequest, MentionCandidate} from './contract.js'
import type {ContributedSlashCommand} from './slash-commands.js'
import type {FileChange, ImagePart, TodoItem, ToolKind, ToolLocation} from './tool-description.js'
import type {JsonSchema, ToolResult} from './tools.js'

/**
 * The agent session of HIP-301 as plugin commands and library callers see it (the host
 * library's `openAgentSession`; the core implements it). The conversation types live here, not
 * in the core, so a plugin gets them from its one dependency, the sdk.
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
export type ReasoningBlock =
  {type: 'thinking'; thinking: string; signature: string} | {type: 'redacted_thinking'; data: string}

/** The conversation, provider-neutral; adapters translate it to each wire format. */
export type Message =
  | {role: 'system'; content: string}
  | {role: 'user'; content: string; images?: ImagePart[]}
  | {role: 'assistant'; content: string; toolCalls: ToolCallRequest[]; reasoning?: ReasoningBlock[]}
  | {role: 'tool'; toolCallId: string; toolName: string; content: string; isError: boolean; images?: ImagePart[]}

export interface Usage {
  /** All the input, what the prompt cache read or wrote included. */
  inputTokens: number
  outputTokens: number
  /** Of the input, what was read from the provider's prompt cache (billed lower), when the server says. */
  cacheReadTokens?: number
  /** Of the input, what was written to the prompt cache (Anthropic bills it higher), when the server says. */
  cacheWriteTokens?: number
}

/**
 * What the loop reports as it goes. The low-level events (a model request starts, a piece of
 * text, a call, its result, the tokens a request cost) come as they happen; the turn's items
 * (TurnItem) start and complete around them, so a printer maps items instead of rebuilding them.
 */
export type AgentEvent =
  | {type: 'turn_start'; turn: number}
  | {type: 'text_delta'; text: string}
  | {type: 'tool_call'; call: ToolCallRequest}
  | {type: 'tool_result'; call: ToolCallRequest; result: ToolResult}
  | {type: 'usage'; usage: Usage}
  | {type: 'item_started'; item: TurnItem}
  | {type: 'item_completed'; item: TurnItem}

/**
 * A turn's parts as the core builds them from the loop and what each tool says of its calls
 * (ToolDefinition's kind, describe and result details). A tool call is one of three by what it
 * does: `command_execution` (kind `execute` with a command), `file_change` (kind `edit`), else
 * `tool_call`. Started and completed by `item_started` / `item_completed` events with the same id;
 * a compaction, a changed plan (`todo_list`) and an error are reported when over, by `item_completed` alone.
 */
export type TurnItem =
  MessageItem | CommandExecutionItem | FileChangeItem | ToolCallItem | CompactionItem | TodoListItem | ErrorItem

/** The model's text between its calls: `text` is whole when completed (a think block left out), empty when started. */
export interface MessageItem {
  type: 'message'
  id: string
  text: string
}

/** What every kind of call item has. */
export interface CallItemBase {
  /** The model's call id. */
  id: string
  name: string
  input: Record<string, unknown>
  kind: ToolKind
  /** The call in one line, as its tool describes it (the subject or the input when it does not). */
  title: string
  /** `running` when started; `failed` when its result is an error (denied, refused, failed). */
  status: 'running' | 'completed' | 'failed'
  /** When completed: the result, its `details` included. */
  result?: ToolResult
}

export interface CommandExecutionItem extends CallItemBase {
  type: 'command_execution'
  command: string
  /** When completed and the tool reported it (ExecuteDetails): null when it did not exit on its own. */
  exitCode?: number | null
}

export interface FileChangeItem extends CallItemBase {
  type: 'file_change'
  /** The files it names (its tool's `locations`). */
  locations: ToolLocation[]
  /** When completed and the tool reported them (EditDetails): the files it changed, before and after. */
  files?: FileChange[]
}

export interface ToolCallItem extends CallItemBase {
  type: 'tool_call'
}

/**
 * The conversation is compacted before a model request (HIP-301 §5): reported by
 * `item_started` when it starts (`running`, what crossed the budget) and `item_completed`
 * when the history was rewritten.
 */
export type CompactionItem = CompactionStart & ({status: 'running'} | CompactionDone)

interface CompactionStart {
  type: 'compaction'
  id: string
  /** The history's estimated tokens when it started, past 90% of `budget`. */
  tokensBefore: number
  /** The conversation's token budget: `max_tokens`, or the model's context window. */
  budget: number
}

interface CompactionDone {
  status: 'completed'
  strategy: 'summary' | 'truncation'
  /** Messages the summary replaced, and their estimated tokens. */
  compactedCount: number
  compactedTokens: number
  tokensSaved: number
  kept: CompactionKept
  /** Why there is no model summary (`truncation`). */
  fallbackReason?: string
}

/** See AgentSession.contextBudget. */
export type ContextBudget =
  {tokens: number; source: 'max_tokens' | 'pricing' | 'catalog'} | {tokens?: undefined; source: 'off' | 'unknown'}

/** What a compaction kept verbatim, around the summary. */
export interface CompactionKept {
  /** The system prompt, AGENTS.md and the other instructions in it. */
  systemPrompt: boolean
  /** The latest user request, moved after the summary when it was in the compacted range. */
  latestRequest: boolean
  /** The last turns (`reserve_recent`), whole. */
  recentTurns: number
  /** The plan (todo_write) as it stood, carried into the summary. */
  todos: number
}

/** The plan changed (a `todo_write` call succeeded): the whole list as it is now; reported when over, by `item_completed` alone. */
export interface TodoListItem {
  type: 'todo_list'
  id: string
  todos: TodoItem[]
}

/** What ended the run with an error (the model's, or a tool's fatal one): the run then throws it. */
export interface ErrorItem {
  type: 'error'
  id: string
  message: string
}

/**
 * `max_tokens`: the last reply was cut at the model's output limit, so the answer is incomplete;
 * `budget`: the session had spent its dollar budget before a request, which was not made.
 */
export type LoopStop = 'completed' | 'max_turns' | 'max_tokens' | 'cancelled' | 'budget'

export interface RunResult {
  finalOutput: string
  /** Each reply as the provider sent it, think blocks included. */
  rawResponses: unknown[]
  /** The conversation after the run (system message included), fit to send again. */
  history: Message[]
  stop: LoopStop
  turns: number
  usage: Usage
}

/** HIP-301 §2 PermissionDecision, as a discriminated union. */
export type PermissionDecision =
  {type: 'allow'; scope?: 'once' | 'session'} | {type: 'deny'; reason: string} | {type: 'escalate'}

/**
 * Who answers when the permission rules say to ask. `context` says how the call could be
 * allowed without asking next time (the core's AllowAdvice), `notice` why a call a rule allows
 * is asked about, `title` the call in one line (the tool's `describe`), `preview` what it
 * would change (the tool's `preview`), to show before the question, and `sessionScope` what an
 * allow with scope `session` allows (`` `ls *` ``, `this exact command`), to say in the question.
 * `kind` is the tool's kind of call, and `inWorkspace` says its path resolves inside the workspace.
 */
export interface Prompter {
  requestPermission(
    toolName: string,
    input: Record<string, unknown>,
    context?: {
      advice: unknown
      notice?: string
      title?: string
      preview?: () => Promise<FileChange[]>
      sessionScope?: string
      kind?: ToolKind
      inWorkspace?: boolean
    },
  ): Promise<PermissionDecision>
  /** Puts an MCP server's question to the user (the chat's form, an app server's client); absent: no one can answer. */
  elicit?(request: ElicitationRequest): Promise<ElicitationAnswer>
}

/**
 * How a session treats what the rules leave to a person: `prompt` asks (denies off a
 * terminal), `allow-reads` runs tools that change nothing, `deny` never asks, `allow-all`
 * runs everything not denied. Deny rules apply in every mode.
 */
export type SessionPermissionMode = 'prompt' | 'allow-reads' | 'deny' | 'allow-all'

/**
 * The tools a session offers the model, and the only ones it runs: a call to any other is
 * refused (an error result for the model, a deny in the audit log). `read-only`: the tools that
 * declare they change nothing (`mutating: false`); `none`: no tool at all; a list: those names.
 */
export type ToolScope = 'all' | 'read-only' | 'none' | readonly string[]

/** Tokens (and cost, when a price is known for the model) of one model request. */
export interface TurnUsage {
  turn: number
  model: string
  input_tokens: number
  output_tokens: number
  cost_usd?: number
}

export interface UsageTotals {
  /** All the input, cached tokens included. */
  input_tokens: number
  output_tokens: number
  /** Of the input, read from or written to the prompt cache: present when a server reported some. */
  cache_read_tokens?: number
  cache_write_tokens?: number
  /** Absent when a request's model has no price: a partial sum would read as the whole cost. */
  cost_usd?: number
}

/** Where a price comes from: the user's `pricing` setting, or the model catalog hanzo-dev ships. */
export type PriceSource = 'setting' | 'catalog'

/** One model's share of a session's usage; `price` says where its cost came from, absent when it has none. */
export interface ModelUsage extends UsageTotals {
  model: string
  requests: number
  price?: PriceSource
}

/**
 * Every model request of the saved session (earlier processes too): its runs and whatever else
 * asked the model through it (side questions such as a commit message, subagents, compactions).
 */
export interface SessionUsage extends UsageTotals {
  requests: number
  /** By model, in the order first used. */
  models: ModelUsage[]
  /** By what made the requests, when some were not a run's turns (a subagent, a compaction, a command's side request). */
  kinds?: KindUsage[]
}

/**
 * What asks the model: a run's turns; a subagent (a `task` call's child run); a compaction's
 * summary; a command's request on the side (a commit message); an MCP server's (sampling).
 */
export type RequestKind = 'turn' | 'subagent' | 'compaction' | 'command' | 'sampling'

/** One kind's share of a session's usage; no cost when a request of it has no price. */
export interface KindUsage extends UsageTotals {
  kind: RequestKind
  requests: number
}

/** A run's model requests, the run's total, and the saved session's (earlier runs too). */
export interface RunUsage {
  turns: TurnUsage[]
  run: UsageTotals
  session: UsageTotals
}

export interface AgentSessionOptions {
  /** The workspace: tools act in it, settings and the project are found from it. */
  cwd: string
  env: Readonly<Record<string, string | undefined>>
  /**
   * The running CLI's oclif Config: plugin contributions (tools, middleware, hooks, context)
   * come from its plugins. Without it, the built-in tools only.
   */
  cliConfig?: unknown
  /** Default: the `model` setting. `false`: a session of tools only (`mcp serve`): no model client, so no key is needed, and `run` rejects. */
  model?: string | false
  /** An OpenAI-compatible /v1 base URL (default: the settings'). */
  baseURL?: string
  permissionMode: SessionPermissionMode
  /** Default: the terminal prompter when stdin and stderr are terminals, else one that denies and says how to allow. */
  prompter?: Prompter
  /** Default `all`. */
  tools?: ToolScope
  /**
   * `false`: the configured MCP servers are not started for this session (`mcp serve`: serving
   * their tools again would make hanzo-dev their proxy, or a client of itself). Default: started.
   */
  mcpServers?: boolean
  /** Put before hanzo-dev's own system prompt (a role: "You are a planner..."), not instead of it. */
  systemPrompt?: string
  /** The most model requests one run makes (default: the `max_turns` setting, else 25). */
  maxTurns?: number
  /**
   * USD: no model request (a child's too) is made once the session's requests cost this much;
   * the run ends as `budget`. Opening fails when the model has no price (nothing to count).
   */
  maxBudgetUsd?: number
  /**
   * `resume` (an id, or a unique start of one) or `continue` (this project's latest) carry on a
   * saved session: its last run's conversation. `fork` starts a new session (a new id) from a copy
   * of that conversation instead, leaving the saved one as it is. `record: false` saves nothing
   * (default: saved).
   */
  session?: {resume?: string; continue?: boolean; fork?: boolean; record?: boolean}
  /** Aborting it cancels the run in progress, as Ctrl-C does. */
  signal?: AbortSignal
  /** A model script to replay instead of a server (tests, demos; the hidden `--fake-model`). */
  fakeModel?: string
  /** Where the session's warnings go (default: stderr). */
  warn?(message: string): void
  /**
   * Files and directories no tool of the session may read or write, besides hanzo-dev's own
   * settings, credentials and data (which every session hides): a server's token and secret files.
   */
  hiddenPaths?: readonly string[]
}

export interface AgentRunOptions {
  onEvent?(event: AgentEvent): void
  /** The conversation to carry on instead of the session's own (without the system message). */
  history?: readonly Message[]
  /** A stage name recorded with the run in the saved session (`plan`, `code`). */
  label?: string
  /** The tools this run offers, within the session's (the chat's plan mode: `read-only`). Default: the session's. */
  tools?: ToolScope
  /** Cancels this run only (it ends as `cancelled`); the session goes on with the next. */
  signal?: AbortSignal
  /** Images sent with the prompt (the chat's `@shot.png`, a pasted image path). */
  images?: ImagePart[]
}

/** A run's result with its usage; `stop` says how it ended. */
export interface AgentRunResult extends RunResult {
  usageReport: RunUsage
}

export interface ChildSessionOptions {
  /** Default: the parent's. A child is never offered a tool its parent is not. */
  tools?: ToolScope
  /** Default: the parent's role prefix. */
  systemPrompt?: string
  maxTurns?: number
  /** Another model of the same provider. */
  model?: string
  /** The label of the child's runs (default: the one each run gives). */
  label?: string
  /**
   * `false`: the child's runs are not written to the saved session (a side question, such as a
   * commit message: `--continue` must carry on the conversation, not the side question). Their
   * usage still counts in the session's. Default: recorded.
   */
  record?: boolean
  /** `sampling`: its requests count in the session's usage as an MCP server's, not as the run's it happens in. */
  kind?: 'sampling'
  /** The most tokens a reply may have, below the `max_output_tokens` setting (an MCP sampling request's `maxTokens`). */
  maxOutputTokens?: number
}

/** A model the session's endpoint serves, as it lists it (`GET /v1/models`). */
export interface ListedModel {
  id: string
  /** Tokens, when the server says. */
  contextWindow?: number
}

/** What {@link AgentSession.compact} did. */
export interface CompactResult {
  /** `none`: nothing to compact (the conversation is shorter than the turns always kept). */
  strategy: 'none' | 'summary' | 'truncation'
  /** How many messages the summary replaced. */
  compactedCount: number
  /** Estimated tokens before minus after. */
  tokensSaved: number
  /** Why the model's summary was not used, for `truncation`. */
  fallbackReason?: string
}

/** A tool the session offers, as a client outside the loop sees it (`mcp serve`, the app server). */
export interface OfferedTool {
  name: string
  description: string
  inputSchema: JsonSchema
  /** As the permission step treats it: a plugin's tool counts as mutating whatever it declares. */
  mutating: boolean
  /** Who provides it: `builtin`, `library` (the caller's own), or the plugin's name. */
  source?: string
}

/**
 * What the permission policy says of a call, as it would be put to a person (the `prompt`
 * mode): `ask` is what no rule decides. `rule` is the pattern that decided, when one did.
 */
export interface ToolVerdict {
  decision: 'allow' | 'ask' | 'deny'
  reason?: string
  rule?: string
}

/** A part of a session's system prompt: `title` names it (`/context`), `text` is what the model reads. */
export interface PromptSection {
  title: string
  text: string
}

export interface AgentSession {
  /** The saved session's id (a child has its parent's: it is recorded into the same session). */
  readonly id: string
  readonly model: string
  /** The provider the model is reached through (`anthropic`, `hanzo`, `ollama`, ...): with the model, what prices it. */
  readonly provider: string
  /** Whether the model takes images (`providers.<name>.images`, else known by its name). */
  readonly takesImages: boolean
  readonly cwd: string
  /** The names of the tools the model is offered. */
  readonly tools: readonly string[]
  /**
   * Sends `prompt` and runs the loop to its end. The session's conversation goes on from run to
   * run (a child's starts empty). A model error, or a hook that stops the prompt, rejects with
   * an AgentRunError (a UserError: message, hint).
   */
  run(prompt: string, options?: AgentRunOptions): Promise<AgentRunResult>
  /**
   * A sub-session: the same settings, permission policy and session approvals, hooks, sandbox,
   * audit log and saved session; its own conversation.
   */
  child(options?: ChildSessionOptions): AgentSession
  /** The offered tools, in the order the model sees them. */
  toolSpecs(): OfferedTool[]
  /** The system prompt, section by section, joined by blank lines: the same on every turn of the session. */
  systemPrompt(): readonly PromptSection[]
  /** The conversation the next run carries on, without the system prompt (compacted, when it was). */
  conversation(): readonly Message[]
  /**
   * Runs one call outside a model turn through the session's own pipeline, exactly as the loop
   * runs the model's: offered tools only, input validation, permission (and audit), hooks,
   * sandbox, output truncation. Failures come back as error results.
   */
  callTool(name: string, input: Record<string, unknown>, options?: {signal?: AbortSignal}): Promise<ToolResult>
  /** The policy's {@link ToolVerdict} of a call, without running it or asking anyone. */
  verdict(name: string, input: Record<string, unknown>): Promise<ToolVerdict>
  /**
   * Compacts this session's conversation now, as the loop does past 90% of `max_tokens`
   * (`/compact`): the middle becomes one summary the model writes (`focus`: what the summary
   * should keep above all), the last `reserve_recent` turns stay. Fires `pre_compact`. Rejects
   * while a run is in progress.
   */
  compact(options?: {focus?: string; signal?: AbortSignal}): Promise<CompactResult>
  /**
   * The models the session's endpoint lists, asked with the credential its runs send (`/model`);
   * a scripted model lists itself. Rejects with the server's error.
   */
  models(options?: {signal?: AbortSignal}): Promise<ListedModel[]>
  /**
   * What the session has used so far, priced: every request made through it or its children
   * counts, so a plugin's model calls are in it without the plugin reporting them.
   */
  usage(): Promise<SessionUsage>
  /**
   * The conversation's token budget, which automatic compaction keeps it under (it starts at
   * 90%): `max_tokens`, else the model's context window from the catalog; none when
   * `auto_compact` is false or the model is unknown.
   */
  contextBudget(): Promise<ContextBudget>
  /** What the plugins said for a status line (`sandbox: workspace`), in the order they answered. */
  statusItems(): readonly string[]
  /** The slash commands the plugins contributed to this session, in the order plugins answered (the interactive prompt's). */
  slashCommands(): readonly ContributedSlashCommand[]
  /** Calls `listener` each time a plugin's commands change after the session opened (Contribution.watchSlashCommands). */
  onSlashCommandsChanged?(listener: () => void): void
  /**
   * The custom slash commands (command files) and agents (agent files) the chat of this session
   * would offer, read now, behind the same trust gate: a project's only once the user trusts it.
   * What `mcp serve` offers as MCP prompts. A bad file is left out with a warning.
   */
  customPrompts?(): Promise<CustomPrompts>
  /** What the plugins offer for an `@` mention starting with `prefix` besides files (Contribution.completeMention). */
  completeMention?(prefix: string, signal: AbortSignal): Promise<MentionCandidate[]>
  /** Calls `listener` with each notice a plugin sends during the session (Contribution.watchNotices). */
  onPluginNotice?(listener: (line: string) => void): void
  /** Ends the session (the root's: plugin contributions disposed, `stop` fired, transcript closed). Idempotent. */
  close(): Promise<void>
}

/** See AgentSession.customPrompts. */
export interface CustomPrompts {
  /** Project files first, then the user's; a name already taken is left out, as in the chat. */
  commands: CustomCommand[]
  agents: CustomAgent[]
}

/** A command file (`.hanzo/commands/NAME.md`, the user's `commands/NAME.md`) as the chat runs it (`/NAME args`). */
export interface CustomCommand {
  name: string
  description: string
  /** The front matter's `argument-hint` (`[pr-number] [priority]`). */
  argsHint?: string
  /** Whether the prompt uses `$ARGUMENTS`, and the `$1`...`$9` it uses (ascending). */
  placeholders: {arguments: boolean; positions: number[]}
  /** The prompt the chat sends for `/NAME args` (`argv`: the arguments one by one). */
  expand(args: string, argv: readonly string[]): string
}

/** An agent file's agent: its instructions are the file's body. */
export interface CustomAgent {
  name: string
  description: string
  instructions: string
}

export type OpenAgentSession = (options: AgentSessionOptions) => Promise<AgentSession>
