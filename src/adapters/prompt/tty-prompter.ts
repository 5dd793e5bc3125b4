import type {PermissionDecision, PermissionPrompter} from '../../core/agent/types.js'
import {oneLine, summarizeToolInput} from './input-summary.js'

/** Where the prompts read keys and draw; the process's stdin and stdout when left out. */
export interface TerminalStreams {
  input?: NodeJS.ReadableStream
  output?: NodeJS.WritableStream
}

type Answer = 'once' | 'session' | 'deny'

/**
 * Asks the user at the terminal: allow once, allow for this session, or deny (with an optional
 * reason the model is told). `@inquirer/prompts` is imported on the first question, not at
 * start-up. Questions are asked one at a time: tool calls that run in parallel would otherwise
 * draw two prompts over each other.
 *
 * Ctrl-C at a prompt rejects (inquirer's ExitPromptError): the user stopped the turn, which is
 * more than denying one call.
 */
export class TtyPrompter implements PermissionPrompter {
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly streams: TerminalStreams = {}) {}

  requestPermission(toolName: string, input: Record<string, unknown>): Promise<PermissionDecision> {
    const decision = this.queue.then(() => this.ask(toolName, input))
    this.queue = decision.catch(() => {})
    return decision
  }

  private async ask(toolName: string, input: Record<string, unknown>): Promise<PermissionDecision> {
    const prompts = await import('@inquirer/prompts')
    const answer = await prompts.select<Answer>(
      {
        choices: [
          {name: 'Allow once', value: 'once'},
          {description: 'the same call will not be asked again until hanzo-dev exits', name: 'Allow for this session', value: 'session'},
          {name: 'Deny', value: 'deny'},
        ],
        message: `Allow ${oneLine(toolName)}: ${summarizeToolInput(toolName, input)}?`,
      },
      this.streams,
    )
    if (answer !== 'deny') return {scope: answer, type: 'allow'}
    const why = (await prompts.input({message: 'Reason (optional, the model is told):'}, this.streams)).trim()
    return {reason: why ? `the user denied it: ${why}` : 'the user denied it', type: 'deny'}
  }
}
