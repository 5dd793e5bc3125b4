import type {FileChange} from '@hanzo-dev/sdk'

import {looksBinary, openRegularFile, readUpTo} from './text-file.js'
import {resolveToolPath, type WorkspacePath} from './workspace-path.js'

/** Larger files are not read for a preview or a result's details (a diff's cost grows with both sides). */
export const SNAPSHOT_MAX_BYTES = 1024 * 1024

/**
 * A file's text as it is now, for the `before` of a {@link FileChange}: null when there is no
 * file, undefined when it cannot be shown (outside the workspace or hidden, not a regular file,
 * binary, over {@link SNAPSHOT_MAX_BYTES}). Read as the file tools read, so a preview never shows
 * what the tool itself would refuse to open. `path` is workspace-relative when it resolves.
 */
export async function fileSnapshot(
  cwd: string,
  given: string,
  hidden?: readonly string[],
): Promise<Pick<FileChange, 'before' | 'path'>> {
  try {
    const target = await resolveToolPath(cwd, given, hidden)
    return {before: await currentText(target), path: target.relative}
  } catch {
    return {before: undefined, path: given}
  }
}

/** The text of a resolved file, as {@link fileSnapshot} gives it. */
export async function currentText(target: WorkspacePath): Promise<string | null | undefined> {
  try {
    const {handle, size} = await openRegularFile(target.absolute, target.relative)
    try {
      const bytes = await readUpTo(handle, SNAPSHOT_MAX_BYTES, size)
      return bytes === undefined || looksBinary(bytes) ? undefined : bytes.toString('utf8')
    } finally {
      await handle.close()
    }
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined
  }
}
