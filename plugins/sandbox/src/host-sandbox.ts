import type {HostContext} from '@hanzo-dev/sdk'

import {type ContainerEvidence, type ContainerProbe, containerEvidence, nodeContainerProbe} from './container.js'
import {mechanismsToTry, readSandboxConfig} from './isolation.js'
import type {ProtectedPath} from './mount-plan.js'
import {Sandbox} from './sandbox.js'

export type SandboxHost = Pick<HostContext, 'configDir' | 'dataDir' | 'env' | 'projectRoot' | 'settings'>

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
 * trust store, sessions, the audit log) protected from the commands the model runs.
 */
export function sandboxForHost(host: SandboxHost, options: HostSandboxOptions = {}): HostSandbox | {problem: string} {
  const container = containerEvidence(options.container ?? nodeContainerProbe(host.env))
  const resolved = readSandboxConfig(host.settings.sandbox, container?.runtime ?? null)
  if ('problem' in resolved) return resolved
  const mechanisms = mechanismsToTry(host.env)
  if ('problem' in mechanisms) return mechanisms
  const own: ProtectedPath[] = [
    {create: true, path: host.configDir, why: "hanzo-dev's settings and credentials are there"},
    {create: true, path: host.dataDir, why: "hanzo-dev's trust store, sessions and audit log are there"},
  ]
  const sandbox = new Sandbox(resolved.config, host.projectRoot, {
    env: host.env,
    mechanisms,
    platform: options.platform,
    // A host that does not say where its directories are has nothing there to protect.
    protectedPaths: own.filter((p) => p.path !== ''),
  })
  return {container, defaulted: resolved.defaulted, sandbox}
}
