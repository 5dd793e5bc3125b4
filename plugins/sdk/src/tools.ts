import type {FileChange, ImagePart, ToolKind, ToolLocation, ToolResultDetails, ToolSubject} from './tool-description.js'

// What a tool says of itself comes with the tool's own types, on the same pure subpath.
export * from './tool-description.js'

/** JSON Schema as plain data; validation happens centrally in the core, never in a tool. */
export type JsonSchema = {[key: string]: unknown}

/** HIP-301 §2 ToolResult. `is_error` results go back to the model; they do not end the turn. */
export interface ToolResult {
  output: string
  error: string | null
  is_error: boolean
  /**
   * Set by a middleware that kept the call from running (a pre_tool_use hook's deny, the
   * sandbox's refusal): the host records it as a denial in the audit log, as the permission
   * step's own denials are.
   */
  refused?: boolean
  /** What happened, structured (tool-description.ts), beside `output`: the model never sees it. */
  details?: ToolResultDetails
  /** Images the model sees with `output` (fs_read of a picture); text tools leave it out. */
  images?: ImagePart[]
}

export interface ToolContext {
  sessionId: string
  /** The workspace directory tools act in. */
  cwd: string
  /** Aborted on Ctrl-C or when the turn ends; a tool must stop and kill its children. */
  signal: AbortSignal
  /**
   * How a tool that starts a process must start it, set by the sandbox middleware (bubblewrap,
   * an unshare mount namespace): given the argv it would run (`[shell, '-c', command]`) and the
   * working directory, the argv to spawn instead. Absent: run the argv as it is.
   */
  wrapCommand?: (argv: string[], cwd: string) => string[]
  /**
   * Canonical absolute paths no tool reads, lists or writes, whatever the workspace: hanzo-dev's
   * own settings, credentials and data, and the secret files a server was given. A tool that
   * takes a path refuses one inside them, and a tool that walks a tree leaves them out.
   */
  hiddenPaths?: readonly string[]
  /**
   * How a tool starts a process that outlives the call (a language server), set on every call by
   * the sandbox middleware while the sandbox is on: the wrapper to start it with, or why it must
   * not start (the sandbox cannot confine processes here). Absent: no sandbox, start it as it is.
   */
  confineProcess?: () => Promise<ProcessConfinement>
}

/** What {@link ToolContext.confineProcess} answers. */
export type ProcessConfinement =
  | {
      /** As {@link ToolContext.wrapCommand}. */
      wrap: (argv: string[], cwd: string) => string[]
      /**
       * Call once the process has ended: removes what it made where git or hanzo-dev would read it
       * (a nested `.hanzo`, a git commondir) and says what, relative to the workspace.
       */
      finish(): Promise<string[]>
    }
  | {refused: string}

/**
 * A tool is data plus `execute`. `mutating` says whether it can change anything outside the
 * conversation; say `true` when unsure, so permissions treat it as a write.
 *
 * The rest describes the tool to the host (tool-description.ts); each is optional, and the host
 * calls them with input already validated against `inputSchema`, before `execute`. They must be
 * quick and must not change anything; one that throws counts as saying nothing.
 */
export interface ToolDefinition<I = Record<string, unknown>> {
  name: string
  description: string
  inputSchema: JsonSchema
  mutating: boolean
  /**
   * Other names a user may give it in a list of tools (`--tools`, a command file's
   * `allowed-tools`, an agent file's `tools`): Claude Code's (`Read`), so files written for it
   * work here. Never offered to the model, never matched by permission rules.
   */
  aliases?: readonly string[]
  /**
   * Its calls may run side by side with the turn's other calls though it is mutating, because
   * what it changes it changes through calls of its own, each checked in turn (a subagent's).
   * Honoured for hanzo-dev's own tools only.
   */
  concurrent?: boolean
  /** `other` when absent. An `edit` tool whose subject is a path is held to the protected files, as `fs_write` is. */
  kind?: ToolKind
  /**
   * What permission rules and approvals match the call by; absent or undefined: the call has
   * none, and only rules naming the tool alone match it.
   */
  subject?(input: I): ToolSubject | undefined
  /** The call in one line, for the user (`src/app.ts`, `npm test`); the subject or the input when absent. */
  describe?(input: I): string
  /** The files it touches: the sandbox checks them (for writing unless its kind is `read`), language servers watch them. */
  locations?(input: I): ToolLocation[]
  /** What the call would change, without changing it: the permission question shows it as a diff. */
  preview?(input: I, context: ToolContext): Promise<FileChange[]>
  /**
   * Why the user must approve this tool again though a rule allows it (its definition changed
   * since they approved it); undefined when it need not. Asked before every call: it may change.
   */
  reconfirm?: () => string | undefined
  execute(input: I, context: ToolContext): Promise<ToolResult>
}

/**
 * A call as middleware gets it. The host's pipeline adds what the tool says of it (its kind,
 * subject and locations), so middleware acts on what a call does, not on its tool's name.
 */
export interface ToolCall {
  name: string
  input: Record<string, unknown>
  kind?: ToolKind
  subject?: ToolSubject
  locations?: readonly ToolLocation[]
}

/** The executor the pipeline is built from: one call in, one result out. */
export type ToolExecutorFn = (call: ToolCall, context: ToolContext) => Promise<ToolResult>

/** Wraps the executor (sandbox and hooks use it): `wrap(next)` returns the new executor. */
export interface Middleware {
  name: string
  wrap(next: ToolExecutorFn): ToolExecutorFn
}

export function toolOk(output: string, details?: ToolResultDetails): ToolResult {
  return details ? {details, error: null, is_error: false, output} : {error: null, is_error: false, output}
}

export function toolError(error: string, output = '', details?: ToolResultDetails): ToolResult {
  return details ? {details, error, is_error: true, output} : {error, is_error: true, output}
}

/** A middleware's refusal of the call before it ran (see {@link ToolResult.refused}). */
export function toolRefusal(reason: string): ToolResult {
  return {...toolError(reason), refused: true}
}
