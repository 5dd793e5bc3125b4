import {lstat, readlink, realpath} from 'node:fs/promises'
import {basename, dirname, join, resolve, sep} from 'node:path'

/** Past this a chain of dangling links is a loop (the kernel's own limit is 40). */
const MAX_LINK_HOPS = 40

/**
 * Where `path` (absolute) really leads: the realpath of its deepest existing ancestor with the
 * rest appended, and a dangling symlink followed through its target, so a link whose target does
 * not exist yet is judged by where a write through it would land. `..` is resolved by name
 * first (`link/..` is the directory holding `link`), the way the model and the tools read it.
 * The host's file tools and the sandbox plugin both judge paths by it, so they never disagree
 * about where a path leads. A chain of links past 40 hops fails with code `ELOOP`.
 */
export async function canonicalize(path: string, hops = 0): Promise<string> {
  try {
    return await realpath(path)
  } catch (error) {
    if (!isMissing(error)) throw error
  }

  const entry = await lstat(path).catch((error: unknown) => {
    if (isMissing(error)) return undefined
    throw error
  })
  const parent = dirname(path)
  if (entry?.isSymbolicLink()) {
    if (hops >= MAX_LINK_HOPS)
      throw Object.assign(new Error(`${path}: too many levels of symbolic links`), {code: 'ELOOP'})
    return canonicalize(resolve(await canonicalize(parent, hops), await readlink(path)), hops + 1)
  }

  if (parent === path) return path
  return join(await canonicalize(parent, hops), basename(path))
}

/** `path` with its directory's symlinks resolved and its own name kept (it may be missing, or a link). */
export async function canonicalEntry(path: string): Promise<string> {
  return join(await realpath(dirname(path)).catch(() => dirname(path)), basename(path))
}

/** Whether `path` is `root` or below it; the separator keeps `/w/proj_evil` out of `/w/proj`. */
export function isInside(root: string, path: string): boolean {
  if (path === root) return true
  return path.startsWith(root.endsWith(sep) ? root : root + sep)
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ENOTDIR'
}
