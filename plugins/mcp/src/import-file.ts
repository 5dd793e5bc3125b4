import {expandVariables, type McpJsonServers, mcpJsonServers} from '@hanzo-dev/sdk/mcp-json'

export interface ImportedServers extends McpJsonServers {
  /** Variables used as `${NAME}`, unset and without a `:-default`: empty when the server starts (each name once). */
  unset: string[]
}

/**
 * A `.mcp.json` to import. Its `${VAR}` and `${VAR:-default}` references are copied as written
 * (expanded when the server starts, so a secret kept in the environment stays out of the settings
 * file); those `env` leaves unset without a default are named.
 */
export function readMcpJson(
  text: string,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
): ImportedServers {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`)
  }

  const found = mcpJsonServers(parsed, file)
  const unset = new Set<string>()
  expandVariables(JSON.stringify(found.servers), env, unset)
  return {...found, unset: [...unset]}
}
