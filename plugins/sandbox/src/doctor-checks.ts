import type {DoctorCheck, HostContext} from '@hanzo-dev/sdk'

import type {BackendStatus, Confinement} from './confinement.js'
import type {ContainerProbe} from './container.js'
import {sandboxForHost} from './host-sandbox.js'
import {ENFORCEMENT_TEXT, type Enforcement, type SandboxConfig} from './isolation.js'

type SandboxHost = Pick<HostContext, 'configDir' | 'dataDir' | 'env' | 'projectRoot' | 'settings' | 'signal'>

export interface SandboxCheckOptions {
  platform?: NodeJS.Platform
  container?: ContainerProbe
}

const USERNS_HINT =
  'namespaces are refused here: on a host allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04+ an AppArmor profile for bwrap); in a container, its seccomp and AppArmor profiles must allow them (docker run --security-opt seccomp=unconfined --security-opt apparmor=unconfined)'

/** Which isolation works on this machine and what the configured mode will get from it. */
export async function sandboxChecks(host: SandboxHost, options: SandboxCheckOptions = {}): Promise<DoctorCheck[]> {
  const made = await sandboxForHost(host, options)
  if ('problem' in made) {
    return [
      {
        detail: made.problem,
        hint: 'fix "sandbox" in your settings: mode is auto, off, workspace or allowlist',
        id: 'sandbox.mode',
        status: 'fail',
        title: 'sandbox mode',
      },
    ]
  }

  const {auto, container, sandbox} = made
  const checks: DoctorCheck[] = [
    {
      detail: container ? `${container.runtime} (${container.source})` : 'none: running on the host',
      id: 'sandbox.container',
      status: 'ok',
      title: 'container detected',
    },
  ]
  const confinement = await sandbox.confinement(host.signal)
  const {config} = sandbox
  if ((options.platform ?? process.platform) !== 'linux') {
    checks.push({
      detail: confinement.bubblewrap.reason,
      id: 'sandbox.namespaces',
      status: 'skip',
      title: 'namespace isolation',
    })
  } else {
    const needed = config.mode !== 'off'
    checks.push(
      backendCheck(
        'sandbox.bwrap',
        'bubblewrap works here',
        confinement.bubblewrap,
        needed,
        'install bubblewrap: apt-get install bubblewrap (dnf/pacman/apk: bubblewrap)',
      ),
      backendCheck(
        'sandbox.unshare',
        'unshare works here',
        confinement.unshare,
        needed,
        'install util-linux (it provides unshare and setpriv)',
      ),
    )
  }

  checks.push(modeCheck(config, auto, confinement))
  return checks
}

function backendCheck(
  id: string,
  title: string,
  probe: BackendStatus,
  needed: boolean,
  installHint: string,
): DoctorCheck {
  // With the sandbox off nothing depends on these, so their absence is informational.
  const missing = needed ? 'warn' : 'skip'
  const off = needed ? '' : ' (not needed: sandbox mode is off)'
  if (!probe.probed) return {detail: `${probe.reason}${off}`, id, status: 'skip', title}
  if (!probe.path)
    return {detail: `not found on PATH${off}`, hint: needed ? installHint : undefined, id, status: missing, title}
  const found = probe.version ? `${probe.version} (${probe.path})` : probe.path
  if (probe.works) return {detail: found, id, status: 'ok', title}
  return {
    detail: `${found} fails: ${probe.reason ?? 'no reason given'}${off}`,
    hint: needed ? USERNS_HINT : undefined,
    id,
    status: missing,
    title,
  }
}

function modeCheck(config: SandboxConfig, auto: string | undefined, confinement: Confinement): DoctorCheck {
  const {mode} = config
  const enforcement: Enforcement = confinement.enforcement
  const allowedPaths = config.allowed_paths.length
  const origin = auto ? ` (auto: ${auto})` : ''
  const scope = mode === 'allowlist' ? `, ${allowedPaths} allowed ${allowedPaths === 1 ? 'path' : 'paths'}` : ''
  const detail = `${mode}${origin}${scope} -> ${ENFORCEMENT_TEXT[enforcement]}`
  const title = 'sandbox mode'
  if (mode === 'allowlist' && allowedPaths === 0) {
    return {
      detail,
      hint: 'add paths to sandbox.allowed_paths, or use mode "workspace"',
      id: 'sandbox.mode',
      status: 'warn',
      title,
    }
  }

  if (mode === 'off' && auto) {
    const can = confinement.bubblewrap.works || confinement.unshare.works
    const hint = can
      ? "commands can read and change hanzo-dev's settings, credentials and trust store: unset sandbox.mode (auto), or set it to workspace, which works here"
      : "commands can read and change hanzo-dev's settings, credentials and trust store, and nothing here can confine them: install bubblewrap where user namespaces are allowed"
    return {detail, hint, id: 'sandbox.mode', status: 'warn', title}
  }

  if (enforcement === 'path-checks') {
    const hint =
      'install bubblewrap (apt-get install bubblewrap) where user namespaces are allowed: until then language servers do not start in agent sessions'
    return {detail, hint, id: 'sandbox.mode', status: 'warn', title}
  }

  return {detail, id: 'sandbox.mode', status: 'ok', title}
}
