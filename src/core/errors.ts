import {UserError} from '@hanzo-dev/sdk/errors'

export {isUserError, ToolFatalError, UserError} from '@hanzo-dev/sdk/errors'

/**
 * What ended an agent session's run before the loop could: a model error (the server's own
 * message) or a hook that stopped the prompt. `reason` is what a report of the run says (the
 * hook's reason, the model's message); `message` says it to the user. Plugins recognise it
 * with `isUserError`.
 */
export class AgentRunError extends UserError {
  readonly reason: string

  constructor(message: string, options: {reason: string; hint?: string; cause?: unknown}) {
    super(message, options)
    this.reason = options.reason
  }
}

/** No credential for the model endpoint: the chat answers it with its setup screen instead of ending. */
export class NoCredentialError extends UserError {}
