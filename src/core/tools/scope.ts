import type {ToolScope} from '@hanzo-dev/sdk'

import {canonicalToolName} from '../permissions/tool-subject.js'
import type {ToolRegistry} from './registry.js'

export type {ToolScope} from '@hanzo-dev/sdk'

/**
 * The names of the registry's tools a scope takes in, in the registry's order, and the names a
 * list gives that no tool has. `read-only` believes what a tool declares (`mutating: false`),
 * a plugin's too: what the permission rules allow is still decided as for a write when the
 * plugin is not trusted (registry.ts), so offering it asks before it runs.
 */
export function scopedToolNames(registry: ToolRegistry, scope: ToolScope): {names: string[]; unknown: string[]} {
  const tools = registry.list().map((tool) => tool.definition)
  if (scope === 'all') return {names: tools.map((t) => t.name), unknown: []}
  if (scope === 'none') return {names: [], unknown: []}
  if (scope === 'read-only') return {names: tools.filter((t) => !t.mutating).map((t) => t.name), unknown: []}
  const wanted = new Set(scope.map((name) => canonicalToolName(name)))
  return {
    names: tools.filter((t) => wanted.has(t.name)).map((t) => t.name),
    unknown: [...wanted].filter((name) => !registry.get(name)),
  }
}
