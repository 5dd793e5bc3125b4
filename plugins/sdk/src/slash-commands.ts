import type {AgentSession, ToolScope} from './agent-session.js'

/**
 * Slash commands (HIP-301 §11, §13): what the user types at the interactive prompt as
 * `/name args...`. A command is data plus `run`; plugins add theirs in their `hanzo:contribute`
 * answer (`slashCommands`). The user starts them, so they run without a tool permission prompt:
 * a command that changes files or the repository says so in its description.
 */
export interface SlashCommandContext {
  /** What follows the name, trimmed; it may span lines (`/compact keep the API notes`). */
  args: string
  /** `args` split at whitespace (no quoting: commands taking free text read `args`). */
  argv: string[]
  /** The directory the session works in. */
  cwd: string
  /** Aborted when the user interrupts (Esc) or the session ends. */
  signal: AbortSignal
  /**
   * The agent session the prompt talks to (absent outside one). A command that asks the model
   * something on the side (`/commit`'s message) uses `session.child({record: false, tools: 'none'})`,
   * so the side question neither reaches the conversation nor the saved session.
   */
  session?: AgentSession
}

/** What the session does once a command returns; every field is optional and they combine. */
export interface SlashCommandResult {
  /** Shown to the user, not sent to the model. */
  message?: string
  /** Added to the conversation as context for the next turn (`/diff`). */
  context?: string
  /** Sent to the model as the user's next prompt (`/plan add a cache`). */
  prompt?: string
  /** The tools that prompt's turn is offered, within the session's (a command file's `allowed-tools`). Default: the session's. */
  tools?: ToolScope
}

/**
 * One slash command. `name` is `[a-z][a-z0-9-]*` (what the prompt parser recognises), typed
 * without its `/`. The interactive session passes its own context, a superset of
 * {@link SlashCommandContext}, to the commands it defines itself (`/clear`, `/model`).
 */
export interface SlashCommandDefinition<C extends SlashCommandContext = SlashCommandContext> {
  name: string
  /** One line for `/help` and the command menu. */
  description: string
  /** The arguments as `/help` shows them: `NAME`, `[focus]`. */
  argsHint?: string
  /**
   * Tab in the arguments: what the last one typed may become, given everything typed after the
   * name (`args`, its last word possibly empty). Absent: Tab does nothing there.
   */
  complete?(args: string, signal: AbortSignal): Promise<string[]>
  run(context: C): Promise<SlashCommandResult | undefined> | SlashCommandResult | undefined
}

/** A plugin's command as the host collected it: who contributed it, for the clash warning and `/help`. */
export interface ContributedSlashCommand {
  definition: SlashCommandDefinition
  /** The plugin's package name. */
  plugin: string
  pluginType: 'core' | 'dev' | 'link' | 'user'
}
