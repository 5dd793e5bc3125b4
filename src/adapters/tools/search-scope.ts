import {stat} from 'node:fs/promises'

import picomatch from 'picomatch'

import {ToolFailure} from './tool-failure.js'
import {resolveInWorkspace, type WorkspacePath} from './workspace-path.js'

/** How a search's `path` input behaves, for the model. */
export const SEARCH_PATH_NOTE =
  'Defaults to the workspace root. A directory named here is searched even when .gitignore ignores it.'

/** The directory fs_glob and fs_grep search by default: `path`, checked to be a directory inside the workspace and not hidden. */
export async function resolveSearchDirectory(
  root: string,
  path: string,
  hidden?: readonly string[],
): Promise<WorkspacePath> {
  const dir = await resolveInWorkspace(root, path, hidden)
  if (!(await stat(dir.absolute)).isDirectory())
    throw new ToolFailure(`${dir.relative} is a file, not a directory; give a directory to search`)
  return dir
}

/** A picomatch matcher, or a {@link ToolFailure} naming what is wrong with the pattern. */
export function compileGlob(pattern: string, options: picomatch.PicomatchOptions): (path: string) => boolean {
  try {
    return picomatch(pattern, options)
  } catch (error) {
    throw new ToolFailure(`invalid glob pattern ${pattern}: ${(error as Error).message}`)
  }
}

/** `relative` (to the workspace root) as a path relative to the search directory `dir`. */
export function relativeTo(dir: WorkspacePath, relative: string): string {
  return dir.relative === '.' ? relative : relative.slice(dir.relative.length + 1)
}
