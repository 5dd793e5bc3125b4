import type {JsonSchema} from '@hanzo-dev/sdk'

/** A tool's input schema: an object with exactly these properties (the model may not invent others). */
export function objectSchema(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return {additionalProperties: false, properties, required, type: 'object'}
}

/** A path input, resolved the way every file tool resolves it (workspace-path.ts). */
export function pathProperty(what: string, extra = ''): JsonSchema {
  return {
    description: `${what}, relative to the workspace root (or absolute, inside the workspace).${extra ? ` ${extra}` : ''}`,
    type: 'string',
  }
}
