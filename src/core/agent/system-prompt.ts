import type {PromptSection} from '@hanzo-dev/sdk'

import {guidanceSections} from './prompt-guidance.js'

export type {PromptSection} from '@hanzo-dev/sdk'

/**
 * The system prompt of a session: hanzo-dev's own instructions (for the tools it is offered), the
 * environment as it was when the session opened, then what the project says about itself
 * (AGENTS.md, the cross-tool convention, and HANZO.md, from the repository's root down to the
 * working directory; without them CLAUDE.md or GEMINI.md), the user's `custom_instructions` and
 * memory file, and what plugins contribute (e.g. LSP diagnostics). Each part is labelled, so the
 * model can tell the user's words from a repository's. Every input is fixed when the session
 * opens, so every turn sends the same bytes: no time of day, no status that changes.
 */
export interface InstructionFile {
  /** As shown to the model: relative to the project root. */
  name: string
  text: string
}

/** The machine and the repository, read once when the session opens. */
export interface SessionEnvironment {
  /** `Linux 6.8.0 (x64)`. */
  os: string
  /** The shell exec runs commands in. */
  shell: string
  cwd: string
  /** `YYYY-MM-DD`: a day, never a time, so the prompt stays the same through the day's turns. */
  date: string
  /** Absent outside a git repository (or without git). */
  git?: GitSnapshot
}

export interface GitSnapshot {
  root: string
  /** `main`, or a description of a detached HEAD. */
  branch: string
  /** `git status --short` lines, at most a screenful; empty when the tree is clean. */
  status: readonly string[]
  /** Status lines left out of `status`. */
  more: number
}

export interface SystemPromptParts {
  /** The offered tools' names: only their advice is given. */
  tools: readonly string[]
  environment: SessionEnvironment
  projectFiles: readonly InstructionFile[]
  customInstructions?: string
  /** The user's memory file (AGENTS.md in their config directory): theirs, in every project. */
  userMemory?: string
  pluginContext: readonly string[]
  /** The skills the `skill` tool loads, in their fixed order: listed only when that tool is offered. */
  skills?: ReadonlyArray<{name: string; description: string}>
}

export function systemPromptSections(parts: SystemPromptParts): PromptSection[] {
  const sections = [...guidanceSections(parts.tools), ...environmentSections(parts.environment)]
  if (parts.tools.includes('skill') && parts.skills?.length)
    sections.push({
      text: [
        '# Skills (instructions for particular tasks: when a task matches one, load it with the skill tool first)',
        ...parts.skills.map(({description, name}) => `- ${name}: ${description}`),
      ].join('\n'),
      title: 'Skills',
    })
  for (const file of parts.projectFiles) {
    if (file.text.trim())
      sections.push({
        text: `# Project instructions (${file.name})\n\n${file.text.trim()}`,
        title: `Project instructions (${file.name})`,
      })
  }

  if (parts.customInstructions?.trim())
    sections.push({
      text: `# The user's instructions\n\n${parts.customInstructions.trim()}`,
      title: "The user's instructions",
    })
  if (parts.userMemory?.trim())
    sections.push({
      text: `# The user's memory (their notes for every project)\n\n${parts.userMemory.trim()}`,
      title: "The user's memory",
    })
  for (const [index, context] of parts.pluginContext.entries())
    if (context.trim()) sections.push({text: context.trim(), title: `Plugin context ${index + 1}`})
  return sections
}

export const joinSections = (sections: readonly PromptSection[]): string => sections.map(({text}) => text).join('\n\n')

export const buildSystemPrompt = (parts: SystemPromptParts): string => joinSections(systemPromptSections(parts))

function environmentSections(env: SessionEnvironment): PromptSection[] {
  const sections: PromptSection[] = [
    {
      text: [
        '# Environment',
        `- OS: ${env.os}`,
        `- Shell: ${env.shell}`,
        `- Working directory: ${env.cwd}`,
        `- Today's date: ${env.date}`,
      ].join('\n'),
      title: 'Environment',
    },
  ]
  const {git} = env
  if (git) {
    const status = git.status.length === 0 ? ['(clean)'] : [...git.status]
    if (git.more > 0) status.push(`... and ${git.more} more`)
    sections.push({
      text: [
        '# Git repository (a snapshot from the start of the session: not updated, git status has the current state)',
        `- Repository root: ${git.root}`,
        `- Branch: ${git.branch}`,
        '- Status:',
        ...status.map((line) => `    ${line}`),
      ].join('\n'),
      title: 'Git repository',
    })
  }

  return sections
}
