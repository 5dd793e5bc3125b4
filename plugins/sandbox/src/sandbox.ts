import {lstat, realpath, stat} from 'node:fs/promises'
import {homedir} from 'node:os'
import {join, resolve} from 'node:path'

import {canonicalize, isInside} from '@hanzo-dev/sdk'
import {
  type ConfinedCommand,
  type Confinement,
  type ConfinementSetup,
  confineCommand,
  trialConfinement,
} from './confinement.js'
import {type ContainerProbe, type ContainerRuntime, detectContainer, nodeContainerProbe} from './container.js'
import {MECHANISMS, type Mechanism, type SandboxConfig} from './isolation.js'
import type {ProtectedPath, Roots} from './mount-plan.js'
import type {WritableCache} from './package-caches.js'

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
  /** What commands may also write in workspace mode: the package managers' caches (package-caches.ts). */
  caches?: WritableCache[]
  /** Where bwrap and unshare are looked up. */
  env?: Readonly<Record<string, string | undefined>>
  platform?: NodeJS.Platform
  /** Which mechanisms to try, in order (tests force one). */
  mechanisms?: readonly Mechanism[]
  /** unshare: make a user namespace (needed to mount unless running as root). */
  userNamespace?: boolean
  /** Whose git config (`~/.gitconfig`) is protected when the workspace holds it; HOME by default. */
  homedir?: string
  /**
   * allowed_paths come from the project's own settings: only those that stay inside the
   * workspace once symlinks are resolved count (a project may tighten the sandbox, not widen it).
   */
  projectAllowedPaths?: boolean
}

/**
 * In the project, what the file tools never write: it runs code or grants permissions when the
 * user next works there. Commands get the finer rules of project-guards.ts (includes, nested
 * repositories, every .hanzo), which leave git add and commit working.
 */
const GIT_CONFIG = 'git config can name programs git runs (core.hooksPath, core.fsmonitor)'
const PROJECT_PROTECTED: ProtectedPath[] = [
  {path: '.git/hooks', why: 'git runs what is there'},
  {path: '.git/config', why: GIT_CONFIG},
  {path: '.git/config.worktree', why: GIT_CONFIG},
  {path: '.git/commondir', why: 'git takes its config and hooks from the directory it names'},
  {path: '.git/modules', why: "the submodules' git config and hooks are there"},
  {path: '.git/worktrees', why: "the linked worktrees' git files are there"},
  {path: '.hanzo', why: "it holds the project's hanzo-dev settings"},
]

/**
 * HIP-301 §10's Sandbox: which paths the tools may touch (`checkPath`) and how the processes
 * they start are confined (`confinement`, `commandWrapper`).
 *
 * Modes: `off` allows everything; `workspace` allows reading and writing inside the workspace;
 * `allowlist` allows writing inside `allowed_paths` (relative to the workspace or absolute) and
 * reading there and in the workspace, where commands start. In both, a write is refused to a
 * protected path and to a file with more than one hard link (its other name may be outside),
 * and a masked path (hanzo-dev's settings, credentials and data) is neither read nor written.
 * allowed_paths from the project's settings that lead out of the workspace are ignored.
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

    const hidden = roots.protected.find((p) => p.mask && isInside(p.path, canonical))
    if (hidden) return {allowed: false, path: canonical, reason: `${shown} is hidden in the sandbox: ${hidden.why}`}
    if (options.write) {
      const guarded = [...roots.project, ...roots.protected].find((p) => isInside(p.path, canonical))
      if (guarded)
        return {allowed: false, path: canonical, reason: `${shown} is read-only in the sandbox: ${guarded.why}`}
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

  /**
   * The confinement of the next command (its `wrap` is what ToolContext.wrapCommand gets, its
   * `finish` is called when it has ended); undefined when commands run unconfined.
   */
  async confineCommand(): Promise<ConfinedCommand | undefined> {
    const confinement = await this.confinement()
    return confineCommand(confinement, await this.setup())
  }

  private async setup(signal?: AbortSignal): Promise<ConfinementSetup> {
    const env = this.options.env ?? process.env
    return {
      context: {cwd: this.workspace, env, signal},
      homedir: this.options.homedir ?? env.HOME ?? homedir(),
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
    const allowed: string[] = []
    const ignored: Roots['ignored'] = []
    for (const path of this.config.allowed_paths) {
      const canonical = await canonicalize(resolve(workspace, path))
      if (this.options.projectAllowedPaths && !isInside(workspace, canonical)) {
        ignored.push({
          path,
          why: `it leads out of the workspace, to ${canonical}, and the project's settings may only allow paths inside it`,
        })
      } else {
        allowed.push(canonical)
      }
    }

    const writable = this.config.mode === 'allowlist' ? allowed : [workspace]
    const canonical = (paths: ProtectedPath[]) =>
      Promise.all(paths.map(async (p) => ({...p, path: await canonicalize(p.path)})))
    // A linked worktree's or a submodule's .git is a file naming its git directory.
    const dotGit: ProtectedPath[] = (await lstat(join(workspace, '.git')).catch(() => undefined))?.isFile()
      ? [{path: '.git', why: 'it names the git directory git takes its config and hooks from'}]
      : []
    const caches = this.config.mode === 'workspace' ? (this.options.caches ?? []) : []
    return {
      caches: await Promise.all(caches.map(async (c) => ({...c, path: await canonicalize(c.path)}))),
      ignored,
      project: await canonical([...PROJECT_PROTECTED, ...dotGit].map((p) => ({...p, path: join(workspace, p.path)}))),
      protected: await canonical(this.options.protectedPaths ?? []),
      readable: [workspace, ...writable.filter((w) => !isInside(workspace, w))],
      writable,
    }
  }

  private scope(roots: Roots, write: boolean | undefined): string {
    const [workspace] = roots.readable
    if (this.config.mode === 'workspace') return `the workspace ${workspace}`
    const allowed = roots.writable.length > 0 ? roots.writable.join(', ') : 'none'
    return write
      ? `the allowed paths (sandbox.allowed_paths: ${allowed})`
      : `the workspace ${workspace} and the allowed paths (${allowed})`
  }
}

/** How many names a regular file has; 0 when there is no such file yet. */
async function hardLinks(path: string): Promise<number> {
  const entry = await stat(path).catch(() => undefined)
  return entry?.isFile() ? entry.nlink : 0
}
