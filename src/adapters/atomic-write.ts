import {randomBytes} from 'node:crypto'
import {lstat, open, rename, unlink} from 'node:fs/promises'
import {basename, dirname, join} from 'node:path'

import {UserError} from '../core/errors.js'

export interface AtomicWriteOptions {
  /** Permission bits of a new file (an existing file keeps its own); 0o600 for credentials. */
  mode?: number
  /** Gives an existing file `mode` too: repairs a private file others could read. */
  forceMode?: boolean
}

/**
 * Replaces `path` with `data` so that a reader sees the old file or the new one, never a part:
 * a temp file in the same directory (O_EXCL, so nothing else's file is reused), fsync, rename,
 * then fsync of the directory so the rename survives a crash. On any failure the temp file is
 * removed and the old file is untouched.
 *
 * A symlink at `path` is refused rather than replaced or followed: the link may point out of
 * the settings directory, and replacing it silently would break whoever set it up.
 */
export async function writeFileAtomic(path: string, data: string, options: AtomicWriteOptions = {}): Promise<void> {
  const existing = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw error
  })
  if (existing?.isSymbolicLink()) {
    throw new UserError(`Refusing to write ${path}: it is a symbolic link`, {
      hint: 'replace the link with a regular file, or edit its target directly',
    })
  }

  if (existing && !existing.isFile()) throw new UserError(`Refusing to write ${path}: it is not a regular file`)

  const mode = existing && !options.forceMode ? existing.mode & 0o7777 : (options.mode ?? 0o666)
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`)
  const handle = await open(temp, 'wx', mode)
  try {
    try {
      // The open mode passes through the umask; an existing file's bits are kept exactly.
      if (existing) await handle.chmod(mode)
      await handle.writeFile(data, 'utf8')
      await handle.sync()
    } finally {
      await handle.close()
    }

    await rename(temp, path)
  } catch (error) {
    await unlink(temp).catch(() => {})
    throw error
  }

  await syncDirectory(dirname(path))
}

async function syncDirectory(dir: string): Promise<void> {
  // Not every platform can open or fsync a directory (Windows); the rename is done either way.
  const handle = await open(dir, 'r').catch(() => undefined)
  if (!handle) return
  try {
    await handle.sync()
  } catch {
    // See above.
  } finally {
    await handle.close()
  }
}
