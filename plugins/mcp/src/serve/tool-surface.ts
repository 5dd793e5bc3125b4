import type {OfferedTool} from '@hanzo-dev/sdk'

/** What `mcp serve` offers when `--tools` is not given: the built-ins, the lean surface a client pays for each turn. */
export const DEFAULT_SURFACE = ['fs', 'exec']

/**
 * The tools `--tools` selects from the session's, in the session's order (built-ins in their
 * fixed order, then plugin tools in the plugins' order: the same on every start, so a client's
 * prompt cache survives a restart). An entry is a tool's name or a group, the part before its
 * first "_" (`fs` is fs_read, fs_write, ...; `git` the git_* tools). An MCP server's tools are
 * never served again: hanzo-dev would become a proxy of servers the client can add itself.
 * An entry that selects nothing is an error naming what there is.
 */
export function selectTools(offered: readonly OfferedTool[], entries: readonly string[]): OfferedTool[] | string {
  const served = offered.filter((tool) => !tool.name.startsWith('mcp__'))
  const unknown = entries.filter((entry) => !served.some((tool) => matches(tool.name, entry)))
  if (unknown.length > 0) {
    const groups = [...new Set(served.map((tool) => tool.name.split('_')[0]))]
    return `--tools ${unknown.join(', ')}: no such tool or group here (the groups are: ${groups.join(', ')}; the tools: ${served.map((t) => t.name).join(', ')})`
  }

  return served.filter((tool) => entries.some((entry) => matches(tool.name, entry)))
}

function matches(name: string, entry: string): boolean {
  return name === entry || name.startsWith(`${entry}_`)
}
