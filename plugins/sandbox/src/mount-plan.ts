import {lstat, mkdir} from 'node:fs/promises'
import {dirname} from 'node:path'

import {canonicalize, isInside} from '@hanzo-dev/sdk'

import type {WritableCache} from './package-caches.js'
import type {CommandGuards} from './project-guards.js'

/** A place no tool and no command may change, with why, for the refusal message. */
export interface ProtectedPath {
  path: string
  why: string
  /**
   * hanzo-dev's own directories: made (0700) when missing inside a writable root before a
   * command runs, so that the command cannot be the one to create them, settings and all.
   */
  create?: boolean
  /**
   * Hidden from commands wherever it is, not only kept read-only: an empty read-only directory
   * takes its place (the credentials, the user settings and the trust store are in there).
   */
  mask?: boolean
}

/** The canonical places a sandbox allows, computed once per {@link Sandbox}. */
export interface Roots {
  readable: string[]
  writable: string[]
  /** hanzo-dev's own places (and the user's git config): kept from tools and commands alike. */
  protected: ProtectedPath[]
  /** What the file tools never write in the project (commands get project-guards.ts instead). */
  project: ProtectedPath[]
  /** What commands may write besides `writable` (not the file tools): the package managers' caches. */
  caches: WritableCache[]
  /** allowed_paths entries left out, with why. */
  ignored: Array<{path: string; why: string}>
}

/**
 * What a confined command may touch, as canonical absolute paths. Binds go in this order, each
 * later one on top of the earlier: `readOnlyRoots` (readable places that are not writable, bound
 * so they stay visible under the private /tmp), `writable` (the roots and the caches), `pinned`,
 * `protected` read-only, then `masked` covered by an empty read-only directory.
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
  masked: string[]
  network: boolean
  /** The canonical /tmp, replaced by a private tmpfs. */
  tmp: string
}

/**
 * The binds for `roots` as they are now, with the `guards` of the next command (none for a
 * trial run, which creates nothing): only paths that exist can be bound, and a protected path
 * matters only inside a writable root (everywhere else / is read-only already). A mask that
 * would hide a readable root (the workspace inside hanzo-dev's config dir) is kept read-only
 * instead.
 */
export async function mountPlan(roots: Roots, network: boolean, guards?: CommandGuards): Promise<MountPlan> {
  // Only a real command's caches are made: a trial run creates nothing.
  if (guards)
    for (const cache of roots.caches) if (cache.create) await mkdir(cache.path, {mode: 0o700, recursive: true})
  const writable = outermost(
    await existing([...roots.writable, ...roots.caches.map((c) => c.path), ...(guards?.writable ?? [])]),
  )
  const readOnlyRoots = (await existing(roots.readable)).filter((r) => !writable.some((w) => isInside(w, r)))
  const guarded = new Set<string>()
  const masked = new Set<string>()
  for (const entry of [...roots.protected, ...(guards?.protected ?? [])]) {
    const inside = writable.some((w) => isInside(w, entry.path))
    const mask = entry.mask && !roots.readable.some((r) => isInside(entry.path, r))
    if (!inside && !mask) continue
    if (!(await exists(entry.path))) {
      if (!entry.create || !guards || !inside) continue
      await mkdir(entry.path, {mode: 0o700, recursive: true})
    }

    if (mask) masked.add(entry.path)
    else guarded.add(entry.path)
  }

  const pinned = new Set<string>()
  for (const path of [...guarded, ...masked]) {
    const root = writable.find((w) => isInside(w, path))
    if (!root) continue
    for (let dir = dirname(path); dir !== root && isInside(root, dir); dir = dirname(dir)) pinned.add(dir)
  }

  return {
    masked: [...masked],
    network,
    pinned: [...pinned].sort((a, b) => a.length - b.length),
    protected: [...guarded],
    readOnlyRoots,
    tmp: await canonicalize('/tmp'),
    writable,
  }
}

export async function existing(paths: string[]): Promise<string[]> {
  const found: string[] = []
  for (const path of paths) if (await exists(path)) found.push(path)
  return found
}

/** Drops roots inside other roots: binding them again changes nothing. */
export function outermost(paths: string[]): string[] {
  const kept: string[] = []
  for (const path of [...paths].sort((a, b) => a.length - b.length))
    if (!kept.some((k) => isInside(k, path))) kept.push(path)
  return kept
}

export async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  )
}
