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

/** Exit codes scripts can rely on. 2 is oclif's own code for a bad flag or argument. */
export const EXIT = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
} as const
