import type {JsonSchema} from '@hanzo-dev/sdk'

/**
 * A tool's parameters as a schema object (zod 4, ArkType, ...) rather than JSON Schema: what of
 * Standard Schema v1 (validation, inferred types) and Standard JSON Schema v1 (conversion) tools
 * use. The schema converts and validates itself, so no schema library is imported here: zod
 * loads only in a program that made a zod schema, never on the CLI's start-up path.
 */
export interface StandardSchema<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>
    readonly types?: {readonly input: Input; readonly output: Output}
    /** Standard JSON Schema; absent in zod 3 and zod before 4.2 (tool() then says so). */
    readonly jsonSchema?: {readonly input: (options: {target: string}) => Record<string, unknown>}
  }
}

export type StandardResult<Output> =
  {readonly value: Output; readonly issues?: undefined} | {readonly issues: readonly StandardIssue[]}

export interface StandardIssue {
  readonly message: string
  readonly path?: ReadonlyArray<PropertyKey | {readonly key: PropertyKey}>
}

export type StandardInput<S extends StandardSchema> = NonNullable<S['~standard']['types']>['input']
export type StandardOutput<S extends StandardSchema> = NonNullable<S['~standard']['types']>['output']

/** Whether `parameters` is a schema object rather than a JSON Schema. */
export function isStandardSchema(parameters: unknown): parameters is StandardSchema {
  const standard = (parameters as {'~standard'?: {version?: unknown}} | null)?.['~standard']
  return typeof standard === 'object' && standard !== null && standard.version === 1
}

/**
 * The JSON Schema of what the model sends: draft-07, which the central input check (Ajv) reads;
 * without `$schema`, which the model APIs do not need. Throws a TypeError naming the tool when
 * the schema cannot say (zod 3 and zod before 4.2 have no converter, a z.date() has no JSON form)
 * or does not describe an object, as every API's tool input is.
 */
export function jsonSchemaOf(schema: StandardSchema, toolName: string): JsonSchema {
  const standard = schema['~standard']
  if (!standard.jsonSchema) {
    throw new TypeError(
      `The parameters of tool ${toolName} (a ${standard.vendor} schema) cannot give their JSON Schema: use zod 4.2 or later, another Standard JSON Schema library, or a JSON Schema`,
    )
  }

  let converted: Record<string, unknown>
  try {
    converted = standard.jsonSchema.input({target: 'draft-07'})
  } catch (error) {
    throw new TypeError(
      `The parameters of tool ${toolName} have no JSON Schema: ${error instanceof Error ? error.message : String(error)}`,
      {cause: error},
    )
  }

  const jsonSchema: JsonSchema = {...converted}
  delete jsonSchema.$schema
  if (jsonSchema.type !== 'object')
    throw new TypeError(
      `The parameters of tool ${toolName} must describe an object (z.object({...})): a tool's input is one`,
    )
  return jsonSchema
}

/** The schema's own parse of the input (defaults, transforms, refinements), or what is wrong with it in words a model can act on. */
export async function parseWithSchema<S extends StandardSchema>(
  schema: S,
  input: unknown,
): Promise<{value: StandardOutput<S>} | {problem: string}> {
  const result = await schema['~standard'].validate(input)
  if (!result.issues) return {value: result.value as StandardOutput<S>}
  return {
    problem:
      result.issues
        .slice(0, 10)
        .map((issue) => describeIssue(issue))
        .join('; ') || 'the input does not match the schema',
  }
}

function describeIssue(issue: StandardIssue): string {
  const path = (issue.path ?? []).map((segment) => String(typeof segment === 'object' ? segment.key : segment))
  return path.length > 0 ? `"${path.join('.')}": ${issue.message}` : issue.message
}
