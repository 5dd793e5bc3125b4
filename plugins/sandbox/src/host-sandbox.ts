import {join} from 'node:path'

import type {HostContext} from '@hanzo-dev/sdk'

import {type ContainerEvidence, type ContainerProbe, containerEvidence, nodeContainerProbe} from './container.js'
import {type IsolationMode, mechanismsToTry, readSandboxConfig} from './isolation.js'
import {ignoredText} from './middleware.js'
import type {ProtectedPath} from './mount-plan.js'
import {cacheGuards, packageCaches} from './package-caches.js'
import {Sandbox} from './sandbox.js'

export type SandboxHost = Pick<HostContext, 'configDir' | 'dataDir' | 'env' | 'projectRoot' | 'settings' | 'tiers'>

export interface HostSandbox {
  sandbox: Sandbox
  /** True when settings.sandbox.mode is unset and its default, `auto`, applies. */
  defaulted: boolean
  /** With mode `auto`: why it chose the mode the sandbox has ("bubblewrap works here"). */
  auto?: string
  container: ContainerEvidence | null
}

export interface HostSandboxOptions {
  container?: ContainerProbe
  platform?: NodeJS.Platform
}

/**
 * The sandbox a hanzo-dev session gets: settings.sandbox, the project root as the workspace, and
 * hanzo-dev's own settings (credentials among them) and data (the trust store, sessions, the
 * audit log) hidden from the commands the model runs, the user's git config kept read-only, and
 * the package managers' caches writable in workspace mode, so `npm ci` or `cargo build` work.
 *
 * Mode `auto` (the default) is `workspace` wherever that confines commands, in a container too:
 * a container keeps the agent from the host, not from the keys inside it (a departure from
 * HIP-301 §10, which takes the container for the sandbox). Only inside a container where
 * neither bubblewrap nor unshare works (the trial runs say) is it `off`, and the session says so;
 * on a host without them it stays `workspace`, with path checks only, as before.
 */
export async function sandboxForHost(
  host: SandboxHost,
  options: HostSandboxOptions = {},
): Promise<HostSandbox | {problem: string}> {
  const container = containerEvidence(options.container ?? nodeContainerProbe(host.env))
  const resolved = readSandboxConfig(host.settings.sandbox)
  if ('problem' in resolved) return resolved
  const mechanisms = mechanismsToTry(host.env)
  if ('problem' in mechanisms) return mechanisms
  const home = host.env.HOME ?? ''
  const gitConfig = 'git runs the programs your git config names (core.fsmonitor, core.hooksPath)'
  const own: ProtectedPath[] = [
    {create: true, mask: true, path: host.configDir, why: "hanzo-dev's settings and credentials are there"},
    {create: true, mask: true, path: host.dataDir, why: "hanzo-dev's trust store, sessions and audit log are there"},
    ...(home
      ? [
          {path: join(home, '.gitconfig'), why: gitConfig},
          {path: join(host.env.XDG_CONFIG_HOME || join(home, '.config'), 'git'), why: gitConfig},
          ...cacheGuards(home, host.env),
        ]
      : []),
  ]
  const make = (mode: IsolationMode) =>
    new Sandbox({...resolved.settings, mode}, host.projectRoot, {
      caches: home ? packageCaches(home, host.env) : [],
      env: host.env,
      mechanisms,
      platform: options.platform,
      projectAllowedPaths: ['project', 'local'].includes(host.tiers?.['sandbox.allowed_paths'] ?? ''),
      // A host that does not say where its directories are has nothing there to protect.
      protectedPaths: own.filter((p) => p.path !== ''),
    })
  const {defaulted, settings} = resolved
  if (settings.mode !== 'auto') return {container, defaulted, sandbox: make(settings.mode)}
  const sandbox = make('workspace')
  if (!container) return {auto: 'the default on a host', container, defaulted, sandbox}
  // Not tied to a signal: the trial's result is kept for the session's first command.
  const {bubblewrap, enforcement, unshare} = await sandbox.confinement()
  if (enforcement === 'bwrap' || enforcement === 'unshare') {
    return {
      auto: `${enforcement === 'bwrap' ? 'bubblewrap' : 'unshare'} works inside ${container.runtime}`,
      container,
      defaulted,
      sandbox,
    }
  }

  const why = (name: string, status: typeof bubblewrap) =>
    `${name}: ${status.reason ?? (status.path ? 'fails' : 'not found')}`
  return {
    auto: `inside ${container.runtime}, and neither bubblewrap nor unshare works (${why('bubblewrap', bubblewrap)}; ${why('unshare', unshare)})`,
    container,
    defaulted,
    sandbox: make('off'),
  }
}

/**
 * What a session says once, on stderr, before it starts: with the sandbox off nothing stands
 * between the agent's commands and hanzo-dev's own files, and the project's allowed paths that
 * lead out of it are ignored.
 */
export async function startNotices(
  made: HostSandbox,
  host: Pick<HostContext, 'configDir' | 'dataDir'>,
): Promise<string[]> {
  const {auto, sandbox} = made
  if (sandbox.config.mode !== 'off') return (await sandbox.roots()).ignored.map((ignored) => ignoredText(ignored))
  const exposed = `commands the agent runs can read and change everything you can, your credentials, settings and trust store included (${host.configDir}, ${host.dataDir})`
  if (auto) {
    return [
      `sandbox: off (auto: ${auto}): ${exposed}; install bubblewrap, and allow user namespaces in the container, to confine them (hanzo-dev sandbox status says what fails)`,
    ]
  }

  return [`sandbox: sandbox.mode is off: ${exposed}`]
}
