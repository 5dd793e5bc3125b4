import {realpath, stat} from 'node:fs/promises'
import {join, resolve} from 'node:path'

import {canonicalize, isInside} from '@hanzo-dev/sdk'
import {type CommandWrapper, type Confinement, type ConfinementSetup, trialConfinement, wrapperFor} from './confinement.js'
import {type ContainerProbe, type ContainerRuntime, detectContainer, nodeContainerProbe} from './container.js'
import {MECHANISMS, type Mechanism, type SandboxConfig} from './isolation.js'
import type {ProtectedPath, Roots} from './mount-plan.js'

export type PathVerdict = {allowed: true; path: string} | {allowed: false; path: string; reason: string}

export interface CheckPathOptions {
  /** Where a relative path starts; the workspace by default. */
  cwd?: string
  /** Asked for a write: the path must be writable, not protected, and not a file with other names. */
  write?: boolean
}

export interface SandboxOptions {
  /** Besides the project's own (.git/hooks, .git/config, .hanzo): hanzo-dev's settings and data. */
  protectedPaths?: ProtectedPath[]
  /** Where bwrap and unshare are looked up. */
  env?: Readonly<Record<string, string | undefined>>
  platform?: NodeJS.Platform
  /** Which mechanisms to try, in order (tests force one). */
  mechanisms?: readonly Mechanism[]
  /** unshare: make a user namespace (needed to mount unless running as root). */
  userNamespace?: boolean
}

/** In the project, what runs code or grants permissions when the user next works there. */
const PROJECT_PROTECTED: ProtectedPath[] = [
  {path: '.git/hooks', why: 'git runs what is there'},
  {path: '.git/config', why: 'git config can name programs git runs (core.hooksPath, core.fsmonitor)'},
  {path: '.hanzo', why: "it holds the project's hanzo-dev settings"},
]

/**
 * HIP-301 §10's Sandbox: which paths the tools may touch (`checkPath`) and how the processes
 * they start are confined (`confinement`, `commandWrapper`).
 *
 * Modes: `off` allows everything; `workspace` allows reading and writing inside the workspace;
 * `allowlist` allows writing inside `allowed_paths` (relative to the workspace or absolute) and
 * reading there and in the workspace, where commands start. In both, a write is refused to a
 * protected path and to a file with more than one hard link (its other name may be outside).
 */
export class Sandbox {
  private rootsPromise?: Promise<Roots>
  private confinementPromise?: Promise<Confinement>

  constructor(
    readonly config: SandboxConfig,
    readonly workspace: string,
    private readonly options: SandboxOptions = {},
  ) {}

  /** HIP-301 §10 `detect_container`. */
  static detectContainer(probe: ContainerProbe = nodeContainerProbe(process.env)): ContainerRuntime | null {
    return detectContainer(probe)
  }

  /** The canonical readable, writable and protected places. */
  roots(): Promise<Roots> {
    this.rootsPromise ??= this.computeRoots()
    return this.rootsPromise
  }

  async checkPath(path: string, options: CheckPathOptions = {}): Promise<PathVerdict> {
    const requested = resolve(options.cwd ?? this.workspace, path)
    if (this.config.mode === 'off') return {allowed: true, path: requested}
    const refuse = (reason: string): PathVerdict => ({allowed: false, path: requested, reason})
    if (path.includes('\0')) return refuse('the path contains a NUL byte')
    let canonical: string
    try {
      canonical = await canonicalize(requested)
    } catch (error) {
      return refuse(`${path} cannot be resolved: ${(error as Error).message}`)
    }

    const roots = await this.roots()
    const shown = canonical === path ? path : `${path} (${canonical})`
    if (!(options.write ? roots.writable : roots.readable).some((root) => isInside(root, canonical))) {
      return {allowed: false, path: canonical, reason: `${shown} is outside ${this.scope(roots, options.write)}`}
    }

    if (options.write) {
      const guarded = roots.protected.find((p) => isInside(p.path, canonical))
      if (guarded) return {allowed: false, path: canonical, reason: `${shown} is read-only in the sandbox: ${guarded.why}`}
      const links = await hardLinks(canonical)
      if (links > 1) {
        const reason = `${shown} has ${links} hard links: the same file has other names, maybe outside the workspace, so it is not written`
        return {allowed: false, path: canonical, reason}
      }
    }

    return {allowed: true, path: canonical}
  }

  /** How commands are confined here; the trial runs are made once, on first use. */
  confinement(signal?: AbortSignal): Promise<Confinement> {
    this.confinementPromise ??= this.setup(signal).then((setup) => trialConfinement(setup))
    return this.confinementPromise
  }

  /** What ToolContext.wrapCommand gets for the next command; undefined when commands run unconfined. */
  async commandWrapper(): Promise<CommandWrapper | undefined> {
    const confinement = await this.confinement()
    return wrapperFor(confinement, await this.setup())
  }

  private async setup(signal?: AbortSignal): Promise<ConfinementSetup> {
    const env = this.options.env ?? process.env
    return {
      context: {cwd: this.workspace, env, signal},
      mechanisms: this.options.mechanisms ?? MECHANISMS,
      mode: this.config.mode,
      network: this.config.network,
      platform: this.options.platform ?? process.platform,
      roots: await this.roots(),
      userNamespace: this.options.userNamespace ?? process.getuid?.() !== 0,
      workspace: this.workspace,
    }
  }

  private async computeRoots(): Promise<Roots> {
    const workspace = await realpath(this.workspace)
    const allowed = await Promise.all(this.config.allowed_paths.map((p) => canonicalize(resolve(workspace, p))))
    const writable = this.config.mode === 'allowlist' ? allowed : [workspace]
    const protectedPaths = [...PROJECT_PROTECTED.map((p) => ({...p, path: join(workspace, p.path)})), ...(this.options.protectedPaths ?? [])]
    return {
      protected: await Promise.all(protectedPaths.map(async (p) => ({...p, path: await canonicalize(p.path)}))),
      readable: [workspace, ...writable.filter((w) => !isInside(workspace, w))],
      writable,
    }
  }

  private scope(roots: Roots, write: boolean | undefined): string {
    const [workspace] = roots.readable
    if (this.config.mode === 'workspace') return `the workspace ${workspace}`
    const allowed = roots.writable.length > 0 ? roots.writable.join(', ') : 'none'
    return write ? `the allowed paths (sandbox.allowed_paths: ${allowed})` : `the workspace ${workspace} and the allowed paths (${allowed})`
  }
}

/** How many names a regular file has; 0 when there is no such file yet. */
async function hardLinks(path: string): Promise<number> {
  const entry = await stat(path).catch(() => undefined)
  return entry?.isFile() ? entry.nlink : 0
}
