/**
 * An error the user can fix: printed as one clear message (and a hint), never a stack trace.
 * Anything else that reaches the top is a bug and keeps its stack.
 */
export class UserError extends Error {
  readonly hint?: string
  readonly exitCode: number

  constructor(message: string, options: {hint?: string; exitCode?: number; cause?: unknown} = {}) {
    super(message, {cause: options.cause})
    this.name = 'UserError'
    this.hint = options.hint
    this.exitCode = options.exitCode ?? 1
  }
}
