import type {PermissionDecision, PermissionPrompter} from '../../core/agent/types.js'
import {commandWords, parseShellCommand, toolSubject} from '../../core/permissions/index.js'

/**
 * The prompter of a run no one can answer (stdin is not a terminal, or the user asked for no
 * questions): it denies, and the reason, which reaches the model and the user, says how to
 * allow the call next time.
 */
export class NonInteractivePrompter implements PermissionPrompter {
  requestPermission(toolName: string, input: Record<string, unknown>): Promise<PermissionDecision> {
    const pattern = suggestedAllowPattern(toolName, input)
    return Promise.resolve({
      reason: `${toolName} needs approval and no one can be asked in this run: run with --permission-mode allow-all, or add ${JSON.stringify(pattern)}: "allow" to "permissions" in .hanzo/settings.local.json`,
      type: 'deny',
    })
  }
}

/**
 * `exec(<program> *)` for a command (its first word, leading `NAME=value` assignments skipped:
 * they may hold a token, and the reason goes into the audit log), the tool name otherwise.
 */
export function suggestedAllowPattern(toolName: string, input: Readonly<Record<string, unknown>>): string {
  const subject = toolSubject(toolName, input)
  const first = subject?.kind === 'command' ? parseShellCommand(subject.command).commands[0] : undefined
  const program = first && commandWords(first)[0]
  return program ? `${toolName}(${program} *)` : toolName
}
