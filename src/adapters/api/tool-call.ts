import {isRecord} from '@hanzo-dev/sdk/settings'

import type {ToolCallRequest} from '../../core/agent/types.js'
import {parseJsonText} from '../../core/config/json-text.js'

/**
 * A completed tool call. `input` is `{}` when the arguments are not a JSON object (a model's
 * typo, a truncated stream) or nest too deep to be a tool's input: the raw `arguments` go back to
 * the model with the parse error, so it can correct itself. An empty string is a call without
 * arguments (some servers send "").
 */
export function toolCallRequest(id: string, name: string, args: string): ToolCallRequest {
  let input: Record<string, unknown> = {}
  if (args.trim() !== '') {
    try {
      const parsed = parseJsonText(args)
      if (isRecord(parsed)) input = parsed
    } catch {
      // Left as {}: see above.
    }
  }

  return {arguments: args, id, input, name}
}
