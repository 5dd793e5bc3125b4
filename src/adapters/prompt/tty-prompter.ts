import type {ChalkInstance} from 'chalk'
import {oneLine, printable} from '@hanzo-dev/sdk/terminal-text'

import type {PermissionDecision, PermissionPrompter, PermissionRequestContext} from '../../core/agent/types.js'

/** Where the prompts read keys and draw; the process's stdin and stdout when left out. */
export interface TerminalStreams {
  input?: NodeJS.ReadableStream
  output?: NodeJS.WritableStream
}

export interface TtyPrompterOptions extends TerminalStreams {
  /** Colours of the diff; none when left out. */
  style?: ChalkInstance
  /**
   * The run's interrupt. With it, Ctrl-C at a question aborts it (the run ends as cancelled) and
   * the call is denied; once it is aborted, an open question closes and no other is asked.
   * Without it, Ctrl-C rejects (inquirer's ExitPromptError).
   */
  interrupt?: Pick<AbortController, 'abort' | 'signal'>
}

type Answer = 'once' | 'session' | 'deny'

const CANCELLED: PermissionDecision = {reason: 'the user cancelled the run at the permission prompt', type: 'deny'}

/**
 * Asks the user at the terminal: allow once, allow for this session (saying what that allows), or deny (with an optional
 * reason the model is told). A question about a call whose tool previews it first shows what would change.
 * `@inquirer/prompts` is imported on the first question, not at start-up. Questions are asked
 * one at a time: tool calls that run in parallel would otherwise draw two prompts over each other.
 */
export class TtyPrompter implements PermissionPrompter {
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly options: TtyPrompterOptions = {}) {}

  requestPermission(
    toolName: string,
    input: Record<string, unknown>,
    context?: PermissionRequestContext,
  ): Promise<PermissionDecision> {
    const decision = this.queue.then(() => this.ask(toolName, input, context))
    this.queue = decision.catch(() => {})
    return decision
  }

  private async ask(
    toolName: string,
    input: Record<string, unknown>,
    context: PermissionRequestContext | undefined,
  ): Promise<PermissionDecision> {
    const {interrupt} = this.options
    if (interrupt?.signal.aborted) return CANCELLED
    try {
      const notice = context?.notice
      if (notice) {
        // A tool wrote the notice (an MCP server's changed tool): through the printer.
        const shown = printable(notice)
        const {output = process.stdout, style} = this.options
        output.write(`${style ? style.yellow(shown) : shown}\n`)
      }

      return await this.question(toolName, input, context)
    } catch (error) {
      const name = (error as Error).name
      if (!interrupt || (name !== 'ExitPromptError' && name !== 'AbortPromptError')) throw error
      interrupt.abort()
      return CANCELLED
    }
  }

  private async question(
    toolName: string,
    input: Record<string, unknown>,
    asked: PermissionRequestContext | undefined,
  ): Promise<PermissionDecision> {
    const [prompts, {changePreview, permissionQuestion}] = await Promise.all([
      import('@inquirer/prompts'),
      import('./change-preview.js'),
    ])
    const {input: keys, interrupt, output, style} = this.options
    const context = {input: keys, output, signal: interrupt?.signal}
    const shownOn = (output ?? process.stdout) as NodeJS.WritableStream & {columns?: number}
    // Fitted to the terminal (its long lines wrap under their +/- gutter); 0 columns is no width known.
    const preview = changePreview((await asked?.preview?.()) ?? [], style, shownOn.columns || undefined)
    if (preview.length > 0) shownOn.write(`${preview.join('\n')}\n`)
    const answer = await prompts.select<Answer>(
      {
        choices: [
          {name: 'Allow once', value: 'once'},
          {
            description: 'what it allows is not asked again until hanzo-dev exits',
            // The scope may quote the model's command or path: one line, through the printer.
            name: `Allow ${oneLine(asked?.sessionScope ?? 'this call')} for this session`,
            value: 'session',
          },
          {name: 'Deny', value: 'deny'},
        ],
        message: permissionQuestion(toolName, input, asked?.title),
      },
      context,
    )
    if (answer !== 'deny') return {scope: answer, type: 'allow'}
    const why = (await prompts.input({message: 'Reason (optional, the model is told):'}, context)).trim()
    return {reason: why ? `the user denied it: ${why}` : 'the user denied it', type: 'deny'}
  }
}
