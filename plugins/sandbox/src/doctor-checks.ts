import type {DoctorCheck, HostContext} from '@hanzo-dev/sdk'

import {type BackendProbe, probeBubblewrap, probeUnshare} from './backends.js'
import {type ContainerProbe, containerEvidence, nodeContainerProbe} from './container.js'
import {chooseEnforcement, type Enforcement, readSandboxConfig, type ResolvedSandboxConfig} from './isolation.js'

type SandboxHost = Pick<HostContext, 'cwd' | 'env' | 'settings' | 'signal'>

export interface SandboxCheckOptions {
  platform?: NodeJS.Platform
  container?: ContainerProbe
}

const USERNS_HINT =
  'namespaces are refused here: on a host allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04+ an AppArmor profile for bwrap); in a container, the container is the sandbox'

/** Which isolation works on this machine and what the configured mode will get from it. */
export async function sandboxChecks(host: SandboxHost, options: SandboxCheckOptions = {}): Promise<DoctorCheck[]> {
  const platform = options.platform ?? process.platform
  const container = containerEvidence(options.container ?? nodeContainerProbe(host.env))
  const checks: DoctorCheck[] = [
    {
      detail: container ? `${container.runtime} (${container.source})` : 'none: running on the host',
      id: 'sandbox.container',
      status: 'ok',
      title: 'container detected',
    },
  ]

  const resolved = readSandboxConfig(host.settings.sandbox, container?.runtime ?? null)
  if ('problem' in resolved) {
    checks.push({detail: resolved.problem, hint: 'fix "sandbox" in your settings: mode is off, workspace or allowlist', id: 'sandbox.mode', status: 'fail', title: 'sandbox mode'})
    return checks
  }

  const {config} = resolved
  if (platform !== 'linux') {
    checks.push({detail: `${platform}: bubblewrap and unshare are Linux only`, id: 'sandbox.namespaces', status: 'skip', title: 'namespace isolation'})
    checks.push(modeCheck(resolved, chooseEnforcement(config.mode, {bwrap: false, unshare: false}), container?.runtime))
    return checks
  }

  const context = {cwd: host.cwd, env: host.env, signal: host.signal}
  const [bwrap, unshare] = await Promise.all([probeBubblewrap(context), probeUnshare(context)])
  const needed = config.mode !== 'off'
  checks.push(
    backendCheck('sandbox.bwrap', 'bubblewrap works here', bwrap, needed, 'install bubblewrap: apt-get install bubblewrap (dnf/pacman/apk: bubblewrap)'),
    backendCheck('sandbox.unshare', 'unshare works here', unshare, needed, 'install util-linux (it provides unshare)'),
    modeCheck(resolved, chooseEnforcement(config.mode, {bwrap: bwrap.works, unshare: unshare.works}), container?.runtime),
  )
  return checks
}

function backendCheck(id: string, title: string, probe: BackendProbe, needed: boolean, installHint: string): DoctorCheck {
  // With the sandbox off nothing depends on these, so their absence is informational.
  const missing = needed ? 'warn' : 'skip'
  const off = needed ? '' : ' (not needed: sandbox mode is off)'
  if (!probe.path) return {detail: `not found on PATH${off}`, hint: needed ? installHint : undefined, id, status: missing, title}
  const found = probe.version ? `${probe.version} (${probe.path})` : probe.path
  if (probe.works) return {detail: found, id, status: 'ok', title}
  return {detail: `${found} fails: ${probe.reason ?? 'no reason given'}${off}`, hint: needed ? USERNS_HINT : undefined, id, status: missing, title}
}

const ENFORCEMENT: Record<Enforcement, string> = {
  bwrap: 'bubblewrap: / read-only, the allowed paths writable, tool processes confined',
  none: 'no restrictions',
  'path-checks': 'path checks only: file tools are confined, processes they start are not',
  unshare: 'unshare mount namespace: / read-only, the allowed paths writable',
}

function modeCheck({config, defaulted}: ResolvedSandboxConfig, enforcement: Enforcement, container: string | undefined): DoctorCheck {
  const {mode} = config
  const allowedPaths = config.allowed_paths.length
  const origin = defaulted ? (container ? ` (default inside ${container}: the container is the sandbox)` : ' (default)') : ''
  const scope = mode === 'allowlist' ? `, ${allowedPaths} allowed ${allowedPaths === 1 ? 'path' : 'paths'}` : ''
  const detail = `${mode}${origin}${scope} -> ${ENFORCEMENT[enforcement]}`
  const title = 'sandbox mode'
  if (mode === 'allowlist' && allowedPaths === 0) {
    return {detail, hint: 'add paths to sandbox.allowed_paths, or use mode "workspace"', id: 'sandbox.mode', status: 'warn', title}
  }

  if (enforcement === 'path-checks') {
    return {detail, hint: 'install bubblewrap (apt-get install bubblewrap) where user namespaces are allowed', id: 'sandbox.mode', status: 'warn', title}
  }

  return {detail, id: 'sandbox.mode', status: 'ok', title}
}
