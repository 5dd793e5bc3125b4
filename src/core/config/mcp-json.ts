import {join} from 'node:path'

import {MCP_JSON_FILE, mcpJsonServers} from '@hanzo-dev/sdk/mcp-json'

import {isPlainObject, type JsonObject} from './key-path.js'
import type {CheckedTier} from './tier-check.js'
import type {ConfigIO, ConfigWarning} from './types.js'

/**
 * The project's `.mcp.json` (Claude Code's file) as project settings: its servers join the
 * project tier's `mcp_servers` beneath the tier's own entries of the same name, before the
 * redirect guard and trust look at that tier, so they start only once the project is trusted and
 * its digest covers them. Its `${VAR}` references stay as written (expanded when a server starts),
 * so the digest does not change with the environment. A file that cannot be read is a warning:
 * it is another tool's file, and it must not stop hanzo-dev.
 */
export async function addProjectMcpJson(tiers: CheckedTier[], projectRoot: string, io: ConfigIO): Promise<void> {
  const file = join(projectRoot, MCP_JSON_FILE)
  const warnings: ConfigWarning[] = []
  const servers: Record<string, JsonObject> = {}
  try {
    const document = await io.readJson(file)
    if (document === null) return
    const found = mcpJsonServers(document.value, file)
    for (const {entry, name} of found.servers) servers[name] = entry as JsonObject
    for (const {name, reason} of found.skipped)
      warnings.push({file, keyPath: `mcpServers.${name}`, message: `left out: ${reason}`})
  } catch (error) {
    warnings.push({file, message: `not read: ${error instanceof Error ? error.message : String(error)}`})
  }

  let project = tiers.find((t) => t.tier === 'project')
  if (!project) {
    project = {data: {}, file, tier: 'project', warnings: []}
    const after = tiers.findIndex((t) => t.tier !== 'user')
    tiers.splice(after === -1 ? tiers.length : after, 0, project)
  }

  project.warnings.push(...warnings)
  if (Object.keys(servers).length === 0) return
  const own = isPlainObject(project.data.mcp_servers) ? project.data.mcp_servers : {}
  project.data.mcp_servers = {...servers, ...own}
}
