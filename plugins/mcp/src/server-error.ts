import {type ToolResult, toolError} from '@hanzo-dev/sdk'

/** A server error the user can act on: the server named, what happened, what to try. */
export class McpServerError extends Error {
  override name = 'McpServerError'
  constructor(
    readonly server: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message)
  }
}

/** What happened, then what to try. */
export function serverErrorText(error: McpServerError): string {
  return error.hint ? `${error.message} (${error.hint})` : error.message
}

/** A server's failure as the model is told it: a result, not an end of the turn. */
export function serverToolError(error: McpServerError): ToolResult {
  return toolError(serverErrorText(error))
}
