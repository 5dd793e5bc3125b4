/**
 * What a tool says about itself and its calls, so the host never guesses from its name: the
 * permission rules, the protected files, the permission question's diff, the result lines, the
 * sandbox, the language servers and the agents read these, for a plugin's tools as for the
 * built-in ones. Everything here is optional in a {@link ToolDefinition}; a tool that says
 * nothing is judged as a plain call of its name.
 */

/**
 * What a tool does, broadly:
 * - `read`: looks at files or state and changes nothing;
 * - `edit`: changes files (its subject or locations name them);
 * - `execute`: runs commands or programs;
 * - `fetch`: reaches the network;
 * - `think`: changes nothing outside the conversation (a plan, a note);
 * - `other`: none of these, or it cannot say; what a tool without `kind` is.
 */
export type ToolKind = 'read' | 'edit' | 'execute' | 'fetch' | 'think' | 'other'

export const TOOL_KINDS: readonly ToolKind[] = ['read', 'edit', 'execute', 'fetch', 'think', 'other']

/**
 * What one call acts on, as permission rules match it (`fs_write(src/**)`, `exec(git status*)`)
 * and approvals remember it: a path (as the call gives it; the host resolves it in the
 * workspace), a command line (the host reads it as a shell does), a URL, or a name matched as
 * it is (the MCP server of `mcp_sampling(<server>)`).
 */
export type ToolSubject =
  | {kind: 'path'; path: string}
  | {kind: 'command'; command: string}
  | {kind: 'url'; url: string}
  | {kind: 'name'; name: string}

/** A file (or directory) a call touches: as the call names it, relative to the workspace or absolute. */
export interface ToolLocation {
  path: string
  /** 1-based, when the call is about one place in the file. */
  line?: number
}

/**
 * A file a call changes (a result's details) or would change (a preview), with its text before
 * and after. `before` is null for a file that did not exist, and absent when it could not be
 * known (too large, binary, unreadable); `after` is null for a file removed. A preview of an
 * edit that cannot apply as asked may give only the parts it would replace.
 */
export interface FileChange {
  /** Relative to the workspace, `/`-separated. */
  path: string
  before?: string | null
  after: string | null
}

/** What a command did: its exit, and what it wrote (as the tool kept it). */
export interface ExecuteDetails {
  kind: 'execute'
  /** Null when it did not exit on its own: a signal ended it, or it timed out or was cancelled. */
  exitCode: number | null
  /** The signal that ended it, when one did. */
  signal?: string
  stdout: string
  stderr: string
  timedOut?: boolean
  cancelled?: boolean
}

/** The files a call changed. */
export interface EditDetails {
  kind: 'edit'
  files: FileChange[]
}

/** How much a read or a search returned, for a one-line summary. */
export interface ReadDetails {
  kind: 'read'
  /** Lines of text read (a file). */
  lines?: number
  /** What a search found: matching lines, or the files when it lists files. */
  matches?: number
}

/** One step of the plan a model keeps (`todo_write`): `activeForm` is how it reads while it is being done. */
export interface TodoItem {
  content: string
  status: 'pending' | 'in_progress' | 'completed'
  activeForm?: string
}

/** The session's plan as a call left it: the whole list, each call replaces it. */
export interface TodoDetails {
  kind: 'todo'
  todos: TodoItem[]
}

/** The image formats every provider that takes images reads (OpenAI, Anthropic, Gemini). */
export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'

/**
 * An image for the model, beside a message's or a result's text: the bytes inline (base64), as
 * every wire format sends them, so a saved session replays without the file. `type` sets it
 * apart from text parts where a provider mixes them.
 */
export interface ImagePart {
  type: 'image'
  mediaType: ImageMediaType
  /** The file's bytes, base64. */
  data: string
  /** Where it came from (a path), for placeholders and the screen. */
  name: string
}

/**
 * A result's structured side, beside the text the model reads (`output`): what the host shows
 * and acts on without parsing that text.
 */
export type ToolResultDetails = ExecuteDetails | EditDetails | ReadDetails | TodoDetails
