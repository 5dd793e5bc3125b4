import type {ToolDefinition, ToolScope} from '@hanzo-dev/sdk'

import {globMatches} from '../permissions/glob.js'
import {canonicalToolName} from '../permissions/tool-subject.js'
import type {ToolRegistry} from './registry.js'

export type {ToolScope} from '@hanzo-dev/sdk'

/** Names a list may use for a family of tools (`--tools fs,exec`), each a glob of tool names. */
export const TOOL_GROUPS: Readonly<Record<string, readonly string[]>> = {
  exec: ['exec', 'exec_*'],
  fs: ['fs_*'],
  git: ['git_*'],
  lsp: ['lsp_*'],
  mcp: ['mcp__*'],
  web: ['web_*'],
}

/**
 * The names of the registry's tools a scope takes in, in the registry's order, and the entries
 * of a list that take in no tool. A list entry is a group (TOOL_GROUPS), a glob (`mcp__github__*`),
 * a name or a tool's alias (`Read`). `read-only` believes what a tool declares (`mutating:
 * false`), a plugin's too: what the permission rules allow is still decided as for a write when
 * the plugin is not trusted (registry.ts), so offering it asks before it runs.
 */
export function scopedToolNames(registry: ToolRegistry, scope: ToolScope): {names: string[]; unknown: string[]} {
  const tools = registry.list().map((tool) => tool.definition)
  if (scope === 'all') return {names: tools.map((t) => t.name), unknown: []}
  if (scope === 'none') return {names: [], unknown: []}
  if (scope === 'read-only') return {names: tools.filter((t) => !t.mutating).map((t) => t.name), unknown: []}
  const entries = [...new Set(scope.map((entry) => entry.trim()).filter(Boolean))].map((entry) => ({
    entry,
    globs: TOOL_GROUPS[entry] ?? [canonicalToolName(entry)],
  }))
  // An alias is a name, never a glob: `Read` is fs_read, `Re*` nothing.
  const taken = (tool: ToolDefinition, {entry, globs}: {entry: string; globs: readonly string[]}) =>
    globs.some((glob) => globMatches(glob, tool.name)) || Boolean(tool.aliases?.includes(entry))
  return {
    names: tools.filter((t) => entries.some((entry) => taken(t, entry))).map((t) => t.name),
    unknown: entries.filter((entry) => !tools.some((t) => taken(t, entry))).map(({entry}) => entry),
  }
}

/** A `--tools` value or `tools.enabled` list as a scope: `all`, `none` and `read-only` alone, else a list. */
export function parseToolScope(value: string | readonly string[]): ToolScope {
  const entries = (typeof value === 'string' ? value.split(',') : value).map((entry) => entry.trim()).filter(Boolean)
  const [only] = entries
  if (entries.length === 1 && (only === 'all' || only === 'none' || only === 'read-only')) return only
  return entries
}

/** An entry for MCP servers' tools: they are listed once the servers are up, after the session opens. */
export const arrivesLate = (entry: string) => entry === 'mcp' || entry.startsWith('mcp__')

/** Why a list entry offers nothing: a name no tool has, or a group or glob no tool here is in. */
export function unknownToolEntry(entry: string): string {
  if (TOOL_GROUPS[entry]) return `tools "${entry}" offer nothing: no tool of that group is here`
  if (/[*?]/.test(entry)) return `tools "${entry}" offer nothing: no tool matches it`
  return `tool "${entry}" is not offered: no tool has that name`
}
