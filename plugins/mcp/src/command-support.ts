import {type CommandHost, failOnUserError, type Host, type HostCommand, loadCommandHost, loadHost} from '@hanzo-dev/sdk'

import {enabledServers, type McpServerEntry} from './server-config.js'
import type {McpServers} from './servers.js'

export interface CommandServers {
  host: CommandHost
  library: Host
  /** The enabled servers the command works on: the settings', or the ones it named. */
  entries: McpServerEntry[]
  /** A session's servers for these entries (none started yet). */
  open(entries: readonly McpServerEntry[]): Promise<McpServers>
}

/**
 * A command's view of the configured servers: the settings as the session sees them (a
 * project's servers only when it is trusted), `only` narrowing them to some names (an unknown
 * name is an error that lists the known ones), warnings on stderr (`quiet`: not those of the
 * servers, for a command that shows their state itself). Nothing is started yet.
 */
export async function commandServers(
  command: HostCommand & {config: {root: string}},
  only?: string[],
  options: {quiet?: boolean} = {},
): Promise<CommandServers> {
  const host = await loadCommandHost(command)
  const library = await mcpHost(command)
  const {problems, servers: all, warnings} = enabledServers(host.settings.mcp_servers, host.env)
  // Quiet: the command shows the problems itself (a listing's rows); an unset variable is in no row.
  for (const warning of [...(options.quiet ? [] : problems), ...warnings]) command.warn(warning)
  let entries = all
  if (only && only.length > 0) {
    const unknown = only.filter((name) => !all.some((s) => s.name === name))
    if (unknown.length > 0) {
      const untrusted = unknown.filter((name) => host.untrusted && name in host.untrusted.mcp_servers)
      const why =
        untrusted.length > 0
          ? `${untrusted.join(', ')} is set in this project's settings, which are not trusted (run hanzo-dev trust)`
          : `the enabled servers are: ${all.map((s) => s.name).join(', ') || 'none'}`
      command.error(`No enabled MCP server named ${unknown.join(', ')}: ${why}`, {exit: 2})
    }

    entries = all.filter((s) => only.includes(s.name))
  }

  const {openSessionServers} = await import('./session-servers.js')
  const open = (chosen: readonly McpServerEntry[]) =>
    openSessionServers(chosen, {
      cwd: host.projectRoot,
      dataDir: host.dataDir,
      env: host.env,
      library,
      settings: host.settings,
      warn: options.quiet ? () => {} : (m) => command.warn(m),
    })
  return {entries, host, library, open}
}

/** The running hanzo-dev's {@link Host}; one that cannot serve this plugin is the command's clear error. */
export async function mcpHost(command: Pick<HostCommand, 'config' | 'error'>): Promise<Host> {
  try {
    return await loadHost(command.config)
  } catch (error) {
    return failOnUserError(command, error)
  }
}

/** Runs `work` with a spinner on a terminal's stderr (nothing when stderr is not a terminal). */
export async function withSpinner<T>(library: Host, text: string, work: () => Promise<T>): Promise<T> {
  const spinner = await library.output.spinner(process.stderr, text)
  spinner?.start()
  try {
    return await work()
  } finally {
    spinner?.stop()
  }
}
