import {getAt, type SchemaNode} from './key-path.js'

/**
 * Runs the settings schema and sorts what it finds: an unknown key is something to warn about
 * and drop; anything else is a value of the wrong type, described in words.
 */

export interface SchemaProblem {
  segments: string[]
  expected: string
  found: string
}

export interface ValidationResult {
  unknownKeys: string[][]
  problems: SchemaProblem[]
}

interface AjvError {
  instancePath: string
  schemaPath: string
  keyword: string
  params: Record<string, unknown>
  parentSchema?: SchemaNode
}

type Validator = ((data: unknown) => boolean) & {errors?: AjvError[] | null}

let validator: Promise<Validator> | undefined

/** The compiled validator is imported on first use: a run that reads no settings never loads it. */
async function loadValidator(): Promise<Validator> {
  validator ??= import('./settings-validator.js').then((m) => m.default as unknown as Validator)
  return validator
}

export async function validateSettings(data: unknown): Promise<ValidationResult> {
  const validate = await loadValidator()
  if (validate(data)) return {problems: [], unknownKeys: []}

  const result: ValidationResult = {problems: [], unknownKeys: []}
  for (const error of validate.errors ?? []) {
    const segments = pointerSegments(error.instancePath)
    if (error.keyword === 'additionalProperties') {
      result.unknownKeys.push([...segments, String(error.params.additionalProperty)])
    } else if (!error.schemaPath.includes('/oneOf/')) {
      // Errors inside a oneOf branch are summed up by the oneOf error at the same place.
      result.problems.push(describeProblem(error, segments, getAt(data, segments)))
    }
  }

  return result
}

function describeProblem(error: AjvError, segments: string[], value: unknown): SchemaProblem {
  if (error.keyword === 'required') {
    const missing = String(error.params.missingProperty)
    return {expected: `an object with "${missing}"`, found: `no "${missing}"`, segments}
  }

  // The schema's only `not` is `{required: [a, b]}`: at most one of two keys (an MCP server's command or url).
  if (error.keyword === 'not') {
    const keys = (error.parentSchema?.not?.required ?? []).map((k) => `"${k}"`)
    return {expected: `an object with ${keys.join(' or ')}, not both`, found: 'both', segments}
  }

  return {
    expected: error.parentSchema ? describeSchema(error.parentSchema) : 'valid',
    found: describeValue(value),
    segments,
  }
}

export function describeSchema(node: SchemaNode): string {
  if (node.enum) return `one of ${node.enum.map((v) => JSON.stringify(v)).join(', ')}`
  if (node.oneOf) return node.oneOf.map((n) => describeSchema(n)).join(' or ')
  if (typeof node.type !== 'string' && node.type)
    return node.type.map((type) => describeSchema({...node, type})).join(' or ')
  switch (node.type) {
    case 'string': {
      if (node.pattern === '\\S') return 'a non-empty string'
      if (node.pattern?.startsWith('^https?://')) return 'an http(s) URL'
      return node.pattern ? `a string matching /${node.pattern}/` : 'a string'
    }

    case 'integer': {
      if (node.minimum !== undefined && node.maximum !== undefined)
        return `an integer from ${node.minimum} to ${node.maximum}`
      return node.minimum === undefined ? 'an integer' : `an integer >= ${node.minimum}`
    }

    case 'boolean': {
      return 'true or false'
    }

    case 'array': {
      const of = node.items?.type === 'string' ? ' of strings' : ''
      return `${node.minItems ? 'a non-empty list' : 'a list'}${of}`
    }

    case 'object': {
      return 'an object'
    }

    default: {
      return 'a valid value'
    }
  }
}

/** The kind of value found, never the value itself: it may be a secret. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list'
  switch (typeof value) {
    case 'string': {
      return value.trim() === '' ? 'an empty string' : 'a string'
    }

    case 'number': {
      return Number.isInteger(value) ? 'a number' : 'a fractional number'
    }

    case 'boolean': {
      return 'true or false'
    }

    default: {
      return 'an object'
    }
  }
}

function pointerSegments(pointer: string): string[] {
  if (pointer === '') return []
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
}
