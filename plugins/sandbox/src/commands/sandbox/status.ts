import {loadCommandHost, makePaint, printable} from '@hanzo-dev/sdk'
import {Command} from '@oclif/core/command'

import type {BackendStatus} from '../../confinement.js'
import type {ContainerEvidence} from '../../container.js'
import {sandboxForHost} from '../../host-sandbox.js'
import {type Enforcement, ENFORCEMENT_TEXT, type IsolationMode} from '../../isolation.js'

export interface SandboxStatusResult {
  platform: NodeJS.Platform
  /** HIP-301 §10's container detection; null on a host. */
  container: ContainerEvidence | null
  /** The project root: what workspace mode confines to. */
  workspace: string
  bubblewrap: BackendStatus
  unshare: BackendStatus
  /** The mode in force (`auto` chose it when {@link auto} is set). */
  mode: IsolationMode
  /** True when settings.sandbox.mode is unset and its default, auto, applies. */
  defaulted: boolean
  /** With mode auto: why it chose {@link mode}. */
  auto?: string
  allowed_paths: string[]
  /** False when settings.sandbox.network is false: commands get no network. */
  network: boolean
  /** The mechanism in force: what tool processes get here with that mode, after the trial runs. */
  enforcement: Enforcement
}

export default class SandboxStatus extends Command {
  static enableJsonFlag = true

  static description = `Show which isolation works here and what the configured sandbox mode will get.

Detects a container (HIP-301 §10: /proc/1/cgroup, /.dockerenv, /run/.containerenv, KUBERNETES_SERVICE_HOST), makes a trial run of bubblewrap and of unshare with the arguments the agent's commands would get (finding them on PATH proves nothing: the kernel decides at run time), and reads settings.sandbox: mode (default auto: workspace wherever it confines commands, in a container too; off only inside a container where neither bubblewrap nor unshare works), allowed_paths and network (default: on). HANZO_SANDBOX_MECHANISM=bwrap, unshare or path-checks forces one mechanism.`

  static examples = [
    '<%= config.bin %> sandbox status',
    '<%= config.bin %> sandbox status --json | jq .enforcement',
    'HANZO_SANDBOX_MECHANISM=unshare <%= config.bin %> sandbox status',
  ]

  async run(): Promise<SandboxStatusResult> {
    const {flags} = await this.parse(SandboxStatus)
    const host = await loadCommandHost(this)
    const made = await sandboxForHost(host)
    if ('problem' in made)
      this.error(`${made.problem} (hanzo-dev config list --show-origin shows which file sets it)`, {exit: 1})
    const {auto, container, defaulted, sandbox} = made
    const {bubblewrap, enforcement, unshare} = await sandbox.confinement()
    const {config} = sandbox
    const status: SandboxStatusResult = {
      allowed_paths: config.allowed_paths,
      ...(auto ? {auto} : {}),
      bubblewrap,
      container,
      defaulted,
      enforcement,
      mode: config.mode,
      network: config.network,
      platform: process.platform,
      unshare,
      workspace: sandbox.workspace,
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
    // What the tools printed, and where they were found: shown, not obeyed.
    const found = printable(p.version ? `${p.version} (${p.path})` : p.path)
    return p.works
      ? `${paint.green('works')}  ${found}`
      : `${paint.yellow('fails')}  ${found}: ${printable(p.reason ?? 'no reason given')}`
  }

  const origin = s.auto ? ` (auto: ${s.auto})` : ' (settings)'
  const lines = [
    row('container', s.container ? `${s.container.runtime} (${s.container.source})` : 'none: running on the host'),
    row('bubblewrap', backend(s.bubblewrap)),
    row('unshare', backend(s.unshare)),
    row('mode', `${s.mode}${origin}`),
    row('workspace', printable(s.workspace)),
  ]
  if (s.mode === 'allowlist')
    lines.push(row('allowed', s.allowed_paths.length > 0 ? s.allowed_paths.join(', ') : paint.yellow('none')))
  const isolation = ENFORCEMENT_TEXT[s.enforcement]
  lines.push(row('isolation', s.enforcement === 'path-checks' ? paint.yellow(isolation) : isolation))
  const noNetwork =
    s.enforcement === 'bwrap' || s.enforcement === 'unshare'
      ? 'off for commands'
      : paint.yellow('off requested, but nothing here can turn it off')
  lines.push(row('network', s.network ? 'on' : noNetwork))
  return lines.join('\n')
}
