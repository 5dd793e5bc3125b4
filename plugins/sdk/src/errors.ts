/*
 * The errors the host and the plugins tell apart by type, never by name. Its own module, with no
 * imports: the core imports it (`@hanzo-dev/sdk/errors`) without the rest of the sdk.
 */

/**
 * Marks a {@link UserError} made by another copy of this module (a plugin installed with an sdk
 * of its own): `instanceof` cannot see across module graphs, a registered symbol can.
 */
const USER_ERROR = Symbol.for('hanzo-dev.user-error')

/**
 * An error the user can fix (bad input, a refusal, a server's own message): printed as one clear
 * message and a hint, never a stack trace, and the command exits with `exitCode`. Anything else
 * that reaches the top is a bug and keeps its stack.
 */
export class UserError extends Error {
  readonly hint?: string
  readonly exitCode: number
  readonly [USER_ERROR] = true

  constructor(message: string, options: {hint?: string; exitCode?: number; cause?: unknown} = {}) {
    super(message, {cause: options.cause})
    this.name = 'UserError'
    this.hint = options.hint
    this.exitCode = options.exitCode ?? 1
  }
}

/** Whether `error` is a {@link UserError} (a subclass, or one from another copy of the sdk). */
export function isUserError(error: unknown): error is UserError {
  return (
    error instanceof UserError ||
    (error instanceof Error && (error as unknown as Record<symbol, unknown>)[USER_ERROR] === true)
  )
}

/**
 * What a tool throws when the turn cannot go on (codex's `Fatal`, as against an error the model
 * can act on): the pipeline ends the turn with it instead of handing it back to the model.
 * Anything else a tool throws, or returns with `is_error`, goes back to the model.
 */
export class ToolFatalError extends Error {
  constructor(message: string, options: {cause?: unknown} = {}) {
    super(message, {cause: options.cause})
    this.name = 'ToolFatalError'
  }
}
