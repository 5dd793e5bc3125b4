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

/**
 * What ended an agent session's run before the loop could: a model error (the server's own
 * message) or a hook that stopped the prompt. `reason` is what a report of the run says (the
 * hook's reason, the model's message); `message` says it to the user. Its name stays UserError:
 * callers in other module graphs (plugins) recognise user errors by name.
 */
export class AgentRunError extends UserError {
  readonly reason: string

  constructor(message: string, options: {reason: string; hint?: string; cause?: unknown}) {
    super(message, options)
    this.reason = options.reason
  }
}
