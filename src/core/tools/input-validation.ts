import {type JsonSchema, toolError, type ToolResult} from '@hanzo-dev/sdk/tools'
import type {ErrorObject, ValidateFunction} from 'ajv'

/**
 * Tool input is checked against the tool's JSON Schema once, here, for every tool: a tool may
 * trust its input's shape. Ajv is heavy, so it is imported on the first check, not at start-up,
 * and each schema is compiled once.
 */
type Validator = ValidateFunction | ((input: unknown) => true)

let ajv: Promise<{compile(schema: JsonSchema): ValidateFunction}> | undefined
const compiled = new WeakMap<JsonSchema, Promise<Validator>>()

async function loadAjv() {
  const {Ajv} = await import('ajv')
  // strict: false — schemas come from plugins and MCP servers, with keywords Ajv does not know.
  return new Ajv({allErrors: true, strict: false, validateFormats: false})
}

function validatorFor(schema: JsonSchema): Promise<Validator> {
  let validator = compiled.get(schema)
  if (!validator) {
    ajv ??= loadAjv()
    // A schema Ajv cannot compile (another draft, a broken $ref) must not make the tool unusable.
    validator = ajv.then((instance) => instance.compile(schema)).catch(() => () => true as const)
    compiled.set(schema, validator)
  }

  return validator
}

/** Undefined when `input` fits `schema`, else what is wrong, in words a model can act on. */
export async function validateToolInput(schema: JsonSchema, input: unknown): Promise<string | undefined> {
  const validate = await validatorFor(schema)
  if (validate(input)) return undefined
  const errors = ('errors' in validate ? validate.errors : undefined) ?? []
  return (
    errors
      .slice(0, 10)
      .map((e) => describe(e))
      .join('; ') || 'the input does not match the schema'
  )
}

/** The result for input that does not fit its tool's schema: the model fixes the arguments and calls again. */
export function invalidInput(toolName: string, problem: string): ToolResult {
  return toolError(`Invalid input for ${toolName}: ${problem}. Fix the arguments and call it again.`)
}

function describe(error: ErrorObject): string {
  const where = error.instancePath ? `"${error.instancePath.slice(1).replaceAll('/', '.')}"` : 'the input'
  if (error.keyword === 'additionalProperties')
    return `${where} has an unknown property "${String(error.params.additionalProperty)}"`
  if (error.keyword === 'required')
    return `${where} is missing the required property "${String(error.params.missingProperty)}"`
  return `${where} ${error.message ?? 'is invalid'}`
}
