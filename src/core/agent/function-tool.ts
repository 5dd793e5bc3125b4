import {type JsonSchema, type ToolContext, type ToolDefinition, type ToolResult, toolOk} from '@hanzo-dev/sdk/tools'

import {invalidInput} from '../tools/input-validation.js'
import {
  isStandardSchema,
  jsonSchemaOf,
  parseWithSchema,
  type StandardInput,
  type StandardOutput,
  type StandardSchema,
} from '../tools/standard-schema.js'

export interface FunctionToolOptions<I, P = JsonSchema> {
  name: string
  description: string
  /**
   * The input: a JSON Schema, or a schema object such as zod 4's `z.object({...})`. The input is
   * checked against the JSON Schema (a schema object's own) before `execute` runs; a schema
   * object then parses it, and `execute` gets what it returns: typed, defaults filled in.
   */
  parameters: P
  /** Whether the tool can change anything; defaults to true (say so when unsure). */
  mutating?: boolean
  /** What the tool says of itself and its calls, as any ToolDefinition may (tool-description.ts in the sdk). */
  kind?: ToolDefinition['kind']
  subject?: ToolDefinition<I>['subject']
  describe?: ToolDefinition<I>['describe']
  locations?: ToolDefinition<I>['locations']
  execute(input: I, context: ToolContext): Promise<string | ToolResult> | string | ToolResult
}

/**
 * A tool from a plain function, as hanzo-agent's `function_tool`: what it returns (text, or a
 * ToolResult) goes to the model.
 *
 *   const weather = tool({name: 'get_weather', description: '...', parameters: z.object({city: z.string()}),
 *     execute: ({city}) => `The weather in ${city} is sunny.`})
 */
export function tool<S extends StandardSchema>(
  options: FunctionToolOptions<StandardOutput<S>, S>,
): ToolDefinition<StandardInput<S>>
export function tool<I = Record<string, unknown>>(options: FunctionToolOptions<I>): ToolDefinition<I>
export function tool(options: FunctionToolOptions<unknown, JsonSchema | StandardSchema>): ToolDefinition<unknown> {
  const {name, parameters} = options
  const run = async (input: unknown, context: ToolContext) => {
    const result = await options.execute(input, context)
    return typeof result === 'string' ? toolOk(result) : result
  }

  const {describe, kind, locations, subject} = options
  const said = {
    ...(kind && {kind}),
    ...(subject && {subject}),
    ...(describe && {describe}),
    ...(locations && {locations}),
  }
  const definition = {description: options.description, mutating: options.mutating ?? true, name, ...said}
  if (!isStandardSchema(parameters)) return {...definition, execute: run, inputSchema: parameters}
  return {
    ...definition,
    async execute(input, context) {
      // The central check has passed; what JSON Schema cannot say (refinements) the schema checks here.
      const parsed = await parseWithSchema(parameters, input)
      return 'problem' in parsed ? invalidInput(name, parsed.problem) : run(parsed.value, context)
    },
    inputSchema: jsonSchemaOf(parameters, name),
  }
}
