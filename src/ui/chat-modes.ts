import type {PermissionDecision, Prompter} from '@hanzo-dev/sdk'

import type {KeyOption} from './key-choice.js'

/**
 * What Shift+Tab cycles, over the session's permission mode: `default` asks as the rules say;
 * `accept-edits` answers the questions about file edits inside the workspace itself (commands
 * are still asked); `plan` offers the model only the tools that change nothing and ends each
 * reply with a plan to approve. Deny rules apply in every mode: only questions are answered here.
 */
export type ChatMode = 'default' | 'accept-edits' | 'plan'

const CYCLE: readonly ChatMode[] = ['default', 'accept-edits', 'plan']

export function nextMode(mode: ChatMode): ChatMode {
  return CYCLE[(CYCLE.indexOf(mode) + 1) % CYCLE.length]
}

/** The status line's words for a mode; none for the default. */
export function modeLabel(mode: ChatMode): string | undefined {
  if (mode === 'accept-edits') return '⏵⏵ accept edits on (shift+tab to cycle)'
  if (mode === 'plan') return '⏸ plan mode on (shift+tab to cycle)'
  return undefined
}

/** Put before a prompt sent in plan mode: the model researches and proposes, the user approves. */
export const PLAN_INSTRUCTIONS = `[Plan mode: the user wants a plan before any change. Use only the read-only tools you are given to study what you need. Do not try to change files or run commands that change anything. End your reply with the plan: a short numbered list of the changes you would make and how you would check them. The user will approve it or ask for changes.]`

/** The answers to "Carry out this plan?": the mode to carry it out in, or none (keep planning). */
export const PLAN_ANSWERS: ReadonlyArray<KeyOption<ChatMode | undefined>> = [
  {key: 'y', label: 'yes, and accept edits without asking', value: 'accept-edits'},
  {key: 'e', label: 'yes, and ask before each edit', value: 'default'},
  {key: 'n', label: 'no, keep planning (tell the model what to change)', value: undefined},
]

/** Sent when the user approves a plan: the conversation already holds it. */
export const PLAN_APPROVED = 'The plan is approved. Carry it out now, step by step, and check your work.'

/**
 * The chat's prompter in a mode: accept-edits allows an edit inside the workspace without asking
 * (once: the next edit is judged again); everything else goes to `ask`.
 */
export function modePrompter(mode: () => ChatMode, ask: Prompter): Prompter {
  return {
    ...(ask.elicit ? {elicit: ask.elicit} : {}),
    requestPermission(tool, input, context): Promise<PermissionDecision> {
      if (mode() === 'accept-edits' && context?.kind === 'edit' && context.inWorkspace)
        return Promise.resolve({scope: 'once', type: 'allow'})
      return ask.requestPermission(tool, input, context)
    },
  }
}
