import {closest} from '../closest.js'
import {UserError} from '../errors.js'
import {SETTINGS_SCHEMA} from './schema.js'

/**
 * Dotted keys (`sandbox.mode`, `mcp_servers.fs.env.HOME`, `permissions.exec(git status*)`) and
 * the objects they address. Keys are split with the schema's help: under a map of plain values
 * (`permissions`, `env`, `headers`) the rest of the key is one name, dots included; under a map
 * of objects (`mcp_servers`, `providers`) one segment is the name, so those names cannot hold dots.
 */

/** Keys that could reach `Object.prototype`: never read, written or merged. */
export const INERT_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

export type JsonObject = {[key: string]: unknown}

interface SchemaNode {
  type?: string | readonly string[]
  description?: string
  default?: unknown
  properties?: Record<string, SchemaNode>
  additionalProperties?: SchemaNode | boolean
  items?: SchemaNode
  enum?: readonly unknown[]
  oneOf?: readonly SchemaNode[]
  pattern?: string
  minimum?: number
  maximum?: number
  minItems?: number
  not?: {required?: readonly string[]}
}

export interface ResolvedKey {
  segments: string[]
  /** The schema of the addressed value; `undefined` when the key is not a known setting. */
  schema?: SchemaNode
}

export function resolveKey(key: string): ResolvedKey {
  const segments: string[] = []
  let node: SchemaNode | undefined = SETTINGS_SCHEMA as SchemaNode
  let rest = key
  while (rest !== '') {
    let segment: string
    if (node?.properties) {
      const known: string | undefined = Object.keys(node.properties).find((p) => rest === p || rest.startsWith(`${p}.`))
      segment = known ?? firstSegment(rest)
      node = known ? node.properties[known] : undefined
    } else if (node && typeof node.additionalProperties === 'object') {
      const value: SchemaNode = node.additionalProperties
      segment = isContainer(value) ? firstSegment(rest) : rest
      node = value
    } else if (node?.type === 'array' && node.items) {
      segment = firstSegment(rest)
      node = /^\d+$/.test(segment) ? node.items : undefined
    } else {
      // A free-form object (`oauth_credentials`) or a key the schema does not know.
      segment = firstSegment(rest)
      node = node?.type === 'object' ? node : undefined
    }

    segments.push(segment)
    rest = rest.slice(segment.length + 1)
  }

  return {schema: key === '' ? undefined : node, segments}
}

export function joinKey(segments: readonly string[]): string {
  return segments.join('.')
}

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function getAt(root: unknown, segments: readonly string[]): unknown {
  let node = root
  for (const segment of segments) {
    if (INERT_KEYS.has(segment)) return undefined
    if (Array.isArray(node) && /^\d+$/.test(segment)) node = node[Number(segment)]
    else if (isPlainObject(node) && Object.hasOwn(node, segment)) node = node[segment]
    else return undefined
  }

  return node
}

/** Sets a value, creating objects on the way; an existing key keeps its place in its object. */
export function setAt(root: JsonObject, segments: readonly string[], value: unknown): void {
  let node: unknown = root
  for (const [index, segment] of segments.entries()) {
    if (INERT_KEYS.has(segment)) throw new TypeError(`"${segment}" cannot be used as a key`)
    const last = index === segments.length - 1
    if (Array.isArray(node)) {
      const at = Number(segment)
      if (!/^\d+$/.test(segment) || at > node.length) throw new TypeError(`"${segment}" is not an index of the list`)
      if (last) node[at] = value
      else node = node[at] ??= {}
      continue
    }

    const object = node as JsonObject
    if (last) object[segment] = value
    else {
      if (!isPlainObject(object[segment]) && !Array.isArray(object[segment])) object[segment] = {}
      node = object[segment]
    }
  }
}

/** Removes a value and then any object it leaves empty; returns whether something was removed. */
export function unsetAt(root: JsonObject, segments: readonly string[]): boolean {
  const parents: unknown[] = [root]
  for (const segment of segments.slice(0, -1)) parents.push(getAt(parents.at(-1), [segment]))
  const parent = parents.at(-1)
  const last = segments.at(-1) as string
  if (Array.isArray(parent) && /^\d+$/.test(last) && Number(last) < parent.length) parent.splice(Number(last), 1)
  else if (isPlainObject(parent) && Object.hasOwn(parent, last) && !INERT_KEYS.has(last)) delete parent[last]
  else return false

  for (let depth = segments.length - 1; depth > 0; depth--) {
    const node = parents[depth]
    const holder = parents[depth - 1]
    if (!isPlainObject(node) || Object.keys(node).length > 0 || !isPlainObject(holder)) break
    delete holder[segments[depth - 1]]
  }

  return true
}

export interface Leaf {
  key: string
  segments: string[]
  value: unknown
}

/** Every scalar, and every list of scalars as one value; lists of objects are walked by index. */
export function leaves(value: unknown, prefix: string[] = []): Leaf[] {
  const isWalkable = isPlainObject(value) || (Array.isArray(value) && value.some((v) => isPlainObject(v)))
  if (!isWalkable) return prefix.length > 0 ? [{key: joinKey(prefix), segments: prefix, value}] : []
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((v, i) => [String(i), v])
    : Object.entries(value)
  return entries.flatMap(([k, v]) => leaves(v, [...prefix, k]))
}

/** Every key the schema names (`model`, `sandbox.mode`, ...). */
function knownKeys(): string[] {
  const walk = (node: SchemaNode, prefix: string): string[] =>
    Object.entries(node.properties ?? {}).flatMap(([k, child]) => [`${prefix}${k}`, ...walk(child, `${prefix}${k}.`)])
  return walk(SETTINGS_SCHEMA as SchemaNode, '')
}

/** The known key closest to a mistyped one (`modle` -> `model`), when one is close enough to be meant. */
export function suggestKey(key: string): string | undefined {
  return closest(key.toLowerCase(), knownKeys())
}

/** The error for a key the schema does not know, with the closest known key when one is close. */
export function unknownSettingError(key: string): UserError {
  const suggestion = suggestKey(key)
  return new UserError(`Unknown setting "${key}"${suggestion ? `; did you mean ${suggestion}?` : ''}`, {
    hint: 'hanzo-dev config keys lists every setting',
  })
}

export type {SchemaNode}

function firstSegment(rest: string): string {
  const dot = rest.indexOf('.')
  return dot === -1 ? rest : rest.slice(0, dot)
}

function isContainer(node: SchemaNode): boolean {
  return node.type === 'object' || node.type === 'array'
}
