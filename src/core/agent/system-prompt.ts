/**
 * The system prompt of a run: hanzo-dev's own instructions, then what the project says about
 * itself (AGENTS.md, the cross-tool convention, and HANZO.md; without them CLAUDE.md or
 * GEMINI.md), the user's `custom_instructions` and memory file, and what plugins contribute (e.g. LSP
 * diagnostics). Each part is labelled, so the model can tell the user's words from a repository's.
 */
export interface InstructionFile {
  /** As shown to the model: relative to the project root. */
  name: string
  text: string
}

export interface SystemPromptParts {
  cwd: string
  date: string
  projectFiles: readonly InstructionFile[]
  customInstructions?: string
  /** The user's memory file (AGENTS.md in their config directory): theirs, in every project. */
  userMemory?: string
  pluginContext: readonly string[]
}

const BASE = `You are hanzo-dev, a coding agent working in the user's repository through tools.
Work in the workspace directory; read files before changing them; prefer small, exact edits
(fs_edit) over rewriting files; run the project's own commands (tests, build) with exec to check
your work. When you are done, answer briefly: what you did and what is left.`

export function buildSystemPrompt(parts: SystemPromptParts): string {
  const sections = [BASE, `Workspace: ${parts.cwd}\nToday: ${parts.date}`]
  for (const file of parts.projectFiles) {
    if (file.text.trim()) sections.push(`# Project instructions (${file.name})\n\n${file.text.trim()}`)
  }

  if (parts.customInstructions?.trim()) sections.push(`# The user's instructions\n\n${parts.customInstructions.trim()}`)
  if (parts.userMemory?.trim())
    sections.push(`# The user's memory (their notes for every project)\n\n${parts.userMemory.trim()}`)
  for (const context of parts.pluginContext) if (context.trim()) sections.push(context.trim())
  return sections.join('\n\n')
}
