import {join} from 'node:path'

import type {HostContext} from '@hanzo-dev/sdk'

import {type ContainerEvidence, type ContainerProbe, containerEvidence, nodeContainerProbe} from './container.js'
import {mechanismsToTry, readSandboxConfig} from './isolation.js'
import {ignoredText} from './middleware.js'
import type {ProtectedPath} from './mount-plan.js'
import {Sandbox} from './sandbox.js'

export type SandboxHost = Pick<HostContext, 'configDir' | 'dataDir' | 'env' | 'projectRoot' | 'settings' | 'tiers'>

export interface HostSandbox {
  sandbox: Sandbox
  /** True when settings.sandbox.mode is unset and HIP-301 §10's default applies. */
  defaulted: boolean
  container: ContainerEvidence | null
}

export interface HostSandboxOptions {
  container?: ContainerProbe
  platform?: NodeJS.Platform
}

/**
 * The sandbox a hanzo-dev session gets: settings.sandbox (defaults by container), the project
 * root as the workspace, and hanzo-dev's own settings (credentials among them) and data (the
 * trust store, sessions, the audit log) hidden from the commands the model runs and the user's
 * git config kept read-only.
 */
export function sandboxForHost(host: SandboxHost, options: HostSandboxOptions = {}): HostSandbox | {problem: string} {
  const container = containerEvidence(options.container ?? nodeContainerProbe(host.env))
  const resolved = readSandboxConfig(host.settings.sandbox, container?.runtime ?? null)
  if ('problem' in resolved) return resolved
  const mechanisms = mechanismsToTry(host.env)
  if ('problem' in mechanisms) return mechanisms
  const home = host.env.HOME ?? ''
  const gitConfig = "git runs the programs your git config names (core.fsmonitor, core.hooksPath)"
  const own: ProtectedPath[] = [
    {create: true, mask: true, path: host.configDir, why: "hanzo-dev's settings and credentials are there"},
    {create: true, mask: true, path: host.dataDir, why: "hanzo-dev's trust store, sessions and audit log are there"},
    ...(home ? [{path: join(home, '.gitconfig'), why: gitConfig}, {path: join(host.env.XDG_CONFIG_HOME || join(home, '.config'), 'git'), why: gitConfig}] : []),
  ]
  const sandbox = new Sandbox(resolved.config, host.projectRoot, {
    env: host.env,
    mechanisms,
    platform: options.platform,
    projectAllowedPaths: ['project', 'local'].includes(host.tiers?.['sandbox.allowed_paths'] ?? ''),
    // A host that does not say where its directories are has nothing there to protect.
    protectedPaths: own.filter((p) => p.path !== ''),
  })
  return {container, defaulted: resolved.defaulted, sandbox}
}

/**
 * What a session says once, on stderr, before it starts: in a container the sandbox is off by
 * default (HIP-301 §10), with the sandbox off nothing stands between the agent's commands and
 * hanzo-dev's own files, and the project's allowed paths that lead out of it are ignored.
 */
export async function startNotices(made: HostSandbox, host: Pick<HostContext, 'configDir' | 'dataDir'>): Promise<string[]> {
  const {container, defaulted, sandbox} = made
  if (sandbox.config.mode !== 'off') return (await sandbox.roots()).ignored.map((ignored) => ignoredText(ignored))
  const exposed = `commands the agent runs can read and change everything you can, your credentials, settings and trust store included (${host.configDir}, ${host.dataDir})`
  if (container && defaulted) {
    return [
      `sandbox: off, the default inside ${container.runtime} (${container.source}): ${exposed}; set sandbox.mode to workspace to confine them (hanzo-dev sandbox status says whether bubblewrap works here)`,
    ]
  }

  return [`sandbox: sandbox.mode is off: ${exposed}`]
}
