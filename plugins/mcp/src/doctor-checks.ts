import {
  type DoctorCheck,
  findExecutable,
  type HostContext,
  redactServerUrl,
  untrustedNote,
  type UntrustedSettings,
} from '@hanzo-dev/sdk'

import {type McpServerEntry, type ParsedServer, parseMcpServers, programOf} from './server-config.js'

type McpHost = Pick<HostContext, 'env' | 'projectRoot' | 'settings' | 'untrusted'>

const SETTINGS_HINT = 'hanzo-dev config list --show-origin shows which file sets it'

/**
 * Checks each configured server can be reached the way it is configured, without starting
 * it: a project's servers must not run before the user trusts the project. Those of an
 * untrusted project are a warning each, never looked up.
 */
export async function mcpChecks(host: McpHost): Promise<DoctorCheck[]> {
  const parsed = parseMcpServers(host.settings.mcp_servers)
  if (parsed.problem)
    return [
      {detail: parsed.problem, hint: SETTINGS_HINT, id: 'mcp.config', status: 'fail', title: 'MCP servers are valid'},
    ]
  const {untrusted} = host
  const notTrusted = untrusted
    ? parseMcpServers(untrusted.mcp_servers).servers.map((s) => untrustedCheck(s, untrusted.status))
    : []
  if (parsed.servers.length === 0 && notTrusted.length === 0) {
    return [{detail: 'no MCP servers configured', id: 'mcp.config', status: 'skip', title: 'MCP servers are valid'}]
  }

  return [...(await Promise.all(parsed.servers.map((s) => serverCheck(s, host)))), ...notTrusted]
}

function untrustedCheck(entry: ParsedServer, status: UntrustedSettings['status']): DoctorCheck {
  const where = ['server' in entry ? describeTransport(entry.server) : '', entry.tier ?? ''].filter(Boolean).join(', ')
  const {hint, reason} = untrustedNote(status)
  return {
    detail: `not trusted${where ? ` (${where})` : ''}: ${reason}`,
    hint,
    id: `mcp.untrusted.${entry.name}`,
    status: 'warn',
    title: `MCP server ${entry.name}`,
  }
}

async function serverCheck(entry: ParsedServer, host: McpHost): Promise<DoctorCheck> {
  const id = `mcp.server.${entry.name}`
  const title = `MCP server ${entry.name}`
  if (entry.disabled)
    return {
      detail: 'server' in entry ? `disabled (${describeTransport(entry.server)})` : 'disabled',
      id,
      status: 'skip',
      title,
    }
  if ('problem' in entry)
    return {detail: `mcp_servers.${entry.name}: ${entry.problem}`, hint: SETTINGS_HINT, id, status: 'fail', title}

  const {server} = entry
  const transport = describeTransport(server)
  if (server.transport.type === 'http') return {detail: transport, id, status: 'ok', title}

  // Relative commands start in the project root, where the server will be spawned.
  const path = await findExecutable(server.transport.command, {cwd: host.projectRoot, env: host.env})
  if (path) return {detail: `${transport} (${path})`, id, status: 'ok', title}
  const {command} = server.transport
  return {
    detail: `${transport}: not found${command.includes('/') ? '' : ' on PATH'}`,
    hint: / /.test(command)
      ? `the command is one program; put its arguments in mcp_servers.${server.name}.args`
      : `install ${command}, fix mcp_servers.${server.name}.command, or set "disabled": true`,
    id,
    status: 'fail',
    title,
  }
}

// Arguments and headers are left out: they are where tokens go.
function describeTransport(server: McpServerEntry): string {
  return server.transport.type === 'http'
    ? `http ${redactServerUrl(server.transport.url)}`
    : `stdio ${programOf(server.transport.command)}`
}
