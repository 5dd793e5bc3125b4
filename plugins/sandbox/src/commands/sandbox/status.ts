import {loadCommandHost, makePaint} from '@hanzo-dev/sdk'
import {Command} from '@oclif/core/command'

import {type BackendProbe, probeBubblewrap, probeUnshare} from '../../backends.js'
import {type ContainerEvidence, containerEvidence, nodeContainerProbe} from '../../container.js'
import {chooseEnforcement, type Enforcement, type IsolationMode, readSandboxConfig} from '../../isolation.js'

export interface BackendStatus extends BackendProbe {
  /** False when no trial run was made (bubblewrap and unshare are Linux only). */
  probed: boolean
}

export interface SandboxStatusResult {
  platform: NodeJS.Platform
  /** HIP-301 §10's container detection; null on a host. */
  container: ContainerEvidence | null
  bubblewrap: BackendStatus
  unshare: BackendStatus
  mode: IsolationMode
  /** True when settings.sandbox.mode is unset and HIP-301 §10's default applies. */
  defaulted: boolean
  allowed_paths: string[]
  /** What tool processes will actually get here with that mode. */
  enforcement: Enforcement
}

// How each enforcement confines a tool run, in the words of the doctor's sandbox check.
const ENFORCEMENT: Record<Enforcement, string> = {
  bwrap: 'bubblewrap: / read-only, the allowed paths writable, tool processes confined',
  none: 'no restrictions',
  'path-checks': 'path checks only: file tools are confined, processes they start are not',
  unshare: 'unshare mount namespace: / read-only, the allowed paths writable',
}

export default class SandboxStatus extends Command {
  static enableJsonFlag = true

  static description = `Show which isolation works here and what the configured sandbox mode will get.

Detects a container (HIP-301 §10: /proc/1/cgroup, /.dockerenv, /run/.containerenv,
KUBERNETES_SERVICE_HOST), makes a trial run of bubblewrap and unshare (finding them on PATH
proves nothing: the kernel decides at run time), and reads settings.sandbox.mode (default:
workspace on a host, off inside a container, where the container is the sandbox).`

  static examples = ['<%= config.bin %> sandbox status', '<%= config.bin %> sandbox status --json | jq .enforcement']

  async run(): Promise<SandboxStatusResult> {
    const {flags} = await this.parse(SandboxStatus)
    const host = await loadCommandHost(this)
    const container = containerEvidence(nodeContainerProbe(host.env))
    const resolved = readSandboxConfig(host.settings.sandbox, container?.runtime ?? null)
    if ('problem' in resolved) {
      this.error(`${resolved.problem} (hanzo-dev config list --show-origin shows which file sets it)`, {exit: 1})
    }

    const {platform} = process
    const context = {cwd: host.cwd, env: host.env}
    const notProbed: BackendStatus = {probed: false, reason: `${platform}: Linux only`, works: false}
    const [bubblewrap, unshare] =
      platform === 'linux'
        ? (await Promise.all([probeBubblewrap(context), probeUnshare(context)])).map((p) => ({...p, probed: true}))
        : [notProbed, notProbed]

    const {config, defaulted} = resolved
    const status: SandboxStatusResult = {
      allowed_paths: config.allowed_paths,
      bubblewrap,
      container,
      defaulted,
      enforcement: chooseEnforcement(config.mode, {bwrap: bubblewrap.works, unshare: unshare.works}),
      mode: config.mode,
      platform,
      unshare,
    }
    if (!flags.json) this.log(render(status))
    return status
  }
}

function render(s: SandboxStatusResult): string {
  const paint = makePaint()
  const row = (label: string, value: string) => `${label.padEnd(12)}${value}`
  const backend = (p: BackendStatus) => {
    if (!p.probed) return paint.dim(`not checked (${p.reason})`)
    if (!p.path) return paint.dim('not found on PATH')
    const found = p.version ? `${p.version} (${p.path})` : p.path
    return p.works ? `${paint.green('works')}  ${found}` : `${paint.yellow('fails')}  ${found}: ${p.reason ?? 'no reason given'}`
  }

  const origin = s.defaulted ? (s.container ? ` (default inside ${s.container.runtime}: the container is the sandbox)` : ' (default)') : ' (settings)'
  const lines = [
    row('container', s.container ? `${s.container.runtime} (${s.container.source})` : 'none: running on the host'),
    row('bubblewrap', backend(s.bubblewrap)),
    row('unshare', backend(s.unshare)),
    row('mode', `${s.mode}${origin}`),
  ]
  if (s.mode === 'allowlist') lines.push(row('allowed', s.allowed_paths.length > 0 ? s.allowed_paths.join(', ') : paint.yellow('none')))
  const isolation = ENFORCEMENT[s.enforcement]
  lines.push(row('isolation', s.enforcement === 'path-checks' ? paint.yellow(isolation) : isolation))
  return lines.join('\n')
}
