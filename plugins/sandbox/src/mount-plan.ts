import {lstat, mkdir} from 'node:fs/promises'
import {dirname} from 'node:path'

import {canonicalize, isInside} from '@hanzo-dev/sdk'

/** A place no tool and no command may change, with why, for the refusal message. */
export interface ProtectedPath {
  path: string
  why: string
  /**
   * hanzo-dev's own directories: made (0700) when missing inside a writable root before a
   * command runs, so that the command cannot be the one to create them, settings and all.
   */
  create?: boolean
}

/** The canonical places a sandbox allows, computed once per {@link Sandbox}. */
export interface Roots {
  readable: string[]
  writable: string[]
  protected: ProtectedPath[]
}

/**
 * What a confined command may touch, as canonical absolute paths. Binds go in this order, each
 * later one on top of the earlier: `readOnlyRoots` (readable places that are not writable, bound
 * so they stay visible under the private /tmp), `writable`, `pinned`, then `protected` read-only.
 */
export interface MountPlan {
  readOnlyRoots: string[]
  writable: string[]
  /**
   * The directories between a writable root and a protected path, bound onto themselves
   * read-write: a mount point cannot be renamed, so `mv .git .git-old && mkdir -p .git/hooks`
   * cannot swap a writable copy in for the protected one.
   */
  pinned: string[]
  protected: string[]
  network: boolean
  /** The canonical /tmp, replaced by a private tmpfs. */
  tmp: string
}

/**
 * The binds for `roots` as they are now: only paths that exist can be bound, and a protected
 * path matters only inside a writable root (everywhere else / is read-only already).
 */
export async function mountPlan(roots: Roots, network: boolean, options: {createMissing: boolean}): Promise<MountPlan> {
  const writable = outermost(await existing(roots.writable))
  const readOnlyRoots = (await existing(roots.readable)).filter((r) => !writable.some((w) => isInside(w, r)))
  const guarded: string[] = []
  for (const entry of roots.protected) {
    if (!writable.some((w) => isInside(w, entry.path))) continue
    if (!(await exists(entry.path))) {
      if (!entry.create || !options.createMissing) continue
      await mkdir(entry.path, {mode: 0o700, recursive: true})
    }

    guarded.push(entry.path)
  }

  const pinned = new Set<string>()
  for (const path of guarded) {
    const root = writable.find((w) => isInside(w, path))!
    for (let dir = dirname(path); dir !== root && isInside(root, dir); dir = dirname(dir)) pinned.add(dir)
  }

  return {
    network,
    pinned: [...pinned].sort((a, b) => a.length - b.length),
    protected: guarded,
    readOnlyRoots,
    tmp: await canonicalize('/tmp'),
    writable,
  }
}

async function existing(paths: string[]): Promise<string[]> {
  const found: string[] = []
  for (const path of paths) if (await exists(path)) found.push(path)
  return found
}

/** Drops roots inside other roots: binding them again changes nothing. */
function outermost(paths: string[]): string[] {
  const kept: string[] = []
  for (const path of [...paths].sort((a, b) => a.length - b.length)) if (!kept.some((k) => isInside(k, path))) kept.push(path)
  return kept
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  )
}
