import {realpath} from 'node:fs/promises'
import {relative, resolve, sep} from 'node:path'

import {canonicalize, isInside} from '@hanzo-dev/sdk'

import {ToolFailure} from './tool-failure.js'

/**
 * Workspace confinement for every file tool: a path the model gives is resolved against the
 * workspace root, then canonicalized (symlinks followed through the longest existing ancestor,
 * dangling links through their target), and refused unless it lands inside the root. Tools then
 * work on the canonical path, so what was checked is what is opened.
 *
 * `..` is resolved by name before the check (`link/..` is the directory holding `link`), the
 * way the model reads a path. What this cannot stop is a link swapped in between the check and
 * the open by another process; the model's own tools run one at a time.
 */

export interface WorkspacePath {
  /** The canonical absolute path. */
  absolute: string
  /** Relative to the workspace root with `/` separators; `.` for the root itself. */
  relative: string
}

/** The canonical workspace root: `cwd` itself may be reached through a symlink (`/tmp` on macOS). */
export function workspaceRoot(cwd: string): Promise<string> {
  return realpath(cwd)
}

/** A tool's `path` input, resolved in the workspace of the call (`cwd`), never one of the `hidden` places. */
export async function resolveToolPath(cwd: string, input: string, hidden?: readonly string[]): Promise<WorkspacePath> {
  return resolveInWorkspace(await workspaceRoot(cwd), input, hidden)
}

/**
 * `input` (relative to `root`, or absolute) as a canonical path inside the workspace and outside
 * every `hidden` place (ToolContext.hiddenPaths), or a {@link ToolFailure}.
 */
export async function resolveInWorkspace(
  root: string,
  input: string,
  hidden: readonly string[] = [],
): Promise<WorkspacePath> {
  if (input.includes('\0')) throw new ToolFailure('the path contains a NUL byte')
  const requested = resolve(root, input)
  const absolute = await canonicalize(requested)
  if (!isInside(root, absolute)) {
    const via = absolute === requested ? '' : ` (it resolves to ${absolute})`
    throw new ToolFailure(`${input} is outside the workspace ${root}${via}; tools can only access paths inside it`)
  }

  const place = hiddenPlace(absolute, hidden)
  if (place !== undefined) {
    const via = absolute === requested ? '' : ` (it resolves to ${absolute})`
    throw new ToolFailure(
      `${input}${via} is in ${place}, where hanzo-dev keeps its settings, credentials, sessions or a server's secrets; no tool reads or writes it`,
    )
  }

  return {absolute, relative: workspaceRelative(root, absolute)}
}

/** The hidden place `absolute` (canonical) is in, if any. */
export function hiddenPlace(absolute: string, hidden: readonly string[] = []): string | undefined {
  return hidden.find((place) => isInside(place, absolute))
}

/** How paths are shown to the model: relative to the root, `/`-separated, `.` for the root. */
export function workspaceRelative(root: string, absolute: string): string {
  return relative(root, absolute).split(sep).join('/') || '.'
}
