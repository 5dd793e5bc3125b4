import type {ToolDefinition} from '@hanzo-dev/sdk'

import type {ModelToolSpec} from '../agent/types.js'
import {canonicalToolName} from '../permissions/tool-subject.js'

/**
 * Where a tool came from. Built-ins and the library caller's own tools are trusted as declared;
 * tools of plugins the user installed or linked always ask permission (see `trusted`).
 */
export type ToolSource = 'builtin' | 'library' | 'core' | 'user' | 'link' | 'dev' | 'mcp'

export interface RegisteredTool {
  definition: ToolDefinition
  source: ToolSource
  /** The plugin or MCP server that contributed it. */
  origin?: string
}

/** Valid for both OpenAI and Anthropic tool names. */
const WIRE_NAME = /^[\w-]{1,64}$/

/**
 * The tools one run offers the model. The first tool registered under a name keeps it, so a
 * plugin can never shadow a built-in; later ones are refused with a warning naming both.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>()

  /** Registers `definition`; returns a warning instead when it is refused. */
  register(definition: ToolDefinition, source: ToolSource, origin?: string): string | undefined {
    const from = origin ? `${source} "${origin}"` : source
    if (!WIRE_NAME.test(definition.name)) {
      return `tool "${definition.name}" from ${from} ignored: a tool name is 1-64 letters, digits, "_" or "-"`
    }

    const existing = this.tools.get(definition.name)
    if (existing) {
      const first = existing.origin ? `${existing.source} "${existing.origin}"` : existing.source
      return `tool "${definition.name}" from ${from} ignored: ${first} already provides it`
    }

    this.tools.set(definition.name, {definition, origin, source})
    return undefined
  }

  /**
   * Replaces the tools `origin` contributed with `definitions` (a contribution whose tools
   * change, as an MCP server's do): the ones it no longer has are gone, new ones register as
   * `register` does. Returns the warnings of the refused ones.
   */
  replace(origin: string, source: ToolSource, definitions: readonly ToolDefinition[]): string[] {
    for (const [name, tool] of this.tools) if (tool.origin === origin && tool.source === source) this.tools.delete(name)
    return definitions.flatMap((definition) => this.register(definition, source, origin) ?? [])
  }

  /** Finds a tool by its wire name or the dotted spelling rules may use (`fs.write`). */
  get(name: string): RegisteredTool | undefined {
    return this.tools.get(canonicalToolName(name))
  }

  /**
   * In one fixed order on every start, whatever order plugins answered or MCP servers came up
   * in (a different order defeats the provider's prompt cache): the host's own tools as
   * registered (built-ins in `builtinTools` order), then contributed ones by plugin, then name.
   */
  list(): RegisteredTool[] {
    const tools = [...this.tools.values()]
    const contributed = tools
      .filter((tool) => tool.origin !== undefined)
      .sort((a, b) => byCodePoint(a.origin!, b.origin!) || byCodePoint(a.definition.name, b.definition.name))
    return [...tools.filter((tool) => tool.origin === undefined), ...contributed]
  }

  specs(): ModelToolSpec[] {
    return this.list().map(({definition: {description, inputSchema, name}}) => ({description, inputSchema, name}))
  }
}

// Not localeCompare: the order must not depend on the machine's locale.
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * Whether a tool's own `mutating: false` may be believed. A plugin the user installed could
 * claim to be read-only and delete files, so its tools count as mutating: read-only shortcuts
 * (`--permission-mode allow-reads`, the shipped read-only defaults) never apply to them.
 */
export function trusted(tool: RegisteredTool): boolean {
  return tool.source === 'builtin' || tool.source === 'library' || tool.source === 'core'
}
