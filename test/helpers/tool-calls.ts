import {builtinTools} from '../../src/adapters/tools/index.js'
import {canonicalToolName, type PermissionPolicy, type ToolCallFacts} from '../../src/core/permissions/index.js'
import {describeCall} from '../../src/core/tools/call-description.js'

const BUILTINS = new Map(builtinTools().map((tool) => [tool.name, tool]))

/**
 * A call as the pipeline puts it to the permission policy: what the built-in tool of that name
 * says of it (its kind and subject; a tool it does not know says nothing), mutating unless
 * `facts` say otherwise.
 */
export function callFacts(
  toolName: string,
  input: Record<string, unknown> = {},
  facts: Partial<ToolCallFacts> = {},
): ToolCallFacts {
  const tool = BUILTINS.get(canonicalToolName(toolName))
  const {kind, subject} = tool ? describeCall(tool, input) : {kind: undefined, subject: undefined}
  return {kind, mutating: true, subject, ...facts}
}

/** `policy` asked about calls of the built-in tools by their input, as the pipeline asks it. */
export function judgingBuiltins(policy: PermissionPolicy) {
  return {
    evaluate: (toolName: string, input?: Record<string, unknown>, facts?: Partial<ToolCallFacts>) =>
      policy.evaluate(toolName, callFacts(toolName, input, facts)),
  }
}
