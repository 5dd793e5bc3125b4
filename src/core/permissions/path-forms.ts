import {hasWildcard, literalShape} from './word-shape.js'

/**
 * Paths as path rules compare them without the file system (the caller's canonical path, with
 * symlinks resolved, is the other form: policy.ts). Rules name workspace-relative paths, so
 * `./src//a.ts` is `src/a.ts`, and a pattern `fs_read(./.env)` is `fs_read(.env)`.
 */

/** A rule's path glob in the form paths are compared in: no leading `./`, no `/./`, no `//`. */
export function normalizePathGlob(glob: string): string {
  return glob
    .replaceAll(/\/{2,}/g, '/')
    .replaceAll(/\/(?:\.\/)+/g, '/')
    .replace(/^(?:\.\/)+/, '')
}

/**
 * A path's shape (word-shape.ts) with `.` and empty segments dropped and `..` taken back by
 * name. What cannot be placed becomes unknown (`*`): a `..` that leaves the workspace
 * (`../x` is `*\/x`), or one after a segment only known when the command runs (`~/..`).
 */
export function normalizePathShape(shape: string): string {
  let absolute = shape.startsWith('/')
  const segments: string[] = []
  for (const segment of shape.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment !== '..') {
      segments.push(segment)
    } else if (segments.length > 0 && !hasWildcard(segments.at(-1)!)) {
      segments.pop()
    } else if (segments.length > 0 || !absolute) {
      segments.splice(0, segments.length, '*')
      absolute = false
    }
  }

  if (segments.length === 0) return absolute ? '/' : '.'
  return (absolute ? '/' : '') + segments.join('/')
}

/** The forms a literal path is compared in: as given and normalized. */
export function literalPathShapes(path: string): string[] {
  const given = literalShape(path)
  return [given, normalizePathShape(given)]
}
