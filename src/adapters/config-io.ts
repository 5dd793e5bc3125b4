import {createHash} from 'node:crypto'
import {constants} from 'node:fs'
import {type FileHandle, lstat, mkdir, open, readdir, readlink, stat} from 'node:fs/promises'
import {join} from 'node:path'

import {ConfigError} from '../core/config/config-error.js'
import type {SettingsWriteIO} from '../core/config/edit.js'
import {parseJsonText} from '../core/config/json-text.js'
import type {ConfigIO} from '../core/config/types.js'

/**
 * The real file system behind the settings loader and `config set` / `unset`.
 *
 * A settings file may come from a cloned repository, so reading one must not run its code, hang
 * or exhaust memory. Every read opens the file (non-blocking, so a FIFO cannot block the open),
 * checks the handle with fstat (a regular file of at most {@link MAX_SETTINGS_BYTES}) and reads
 * through that same handle, so nothing can be swapped in between the check and the read.
 *
 * Settings files are plain JSON, read here rather than through cosmiconfig (which ARCHITECTURE.md
 * names): cosmiconfig's public API executes `.config/config.js` from the working directory (its
 * "meta config") and follows `$import` into `.js` files, so a cloned repository could run code;
 * avoiding that meant reaching into its undocumented internals, reading each file twice (by
 * path, after the handle was checked) and ~11 ms of start-up for no format we accept.
 */

/** Far above any hand-written settings file; past it, the file is not settings. */
export const MAX_SETTINGS_BYTES = 1024 * 1024

export const nodeConfigIO: ConfigIO = {
  async kind(path) {
    try {
      const stats = await stat(path)
      return stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other'
    } catch (error) {
      if (isMissing(error)) return 'missing'
      throw unusablePath(path, error)
    }
  },

  async readJson(path) {
    const text = await readSettingsText(path)
    return text === null ? null : {value: parseJsonText(text)}
  },

  async readTextFiles(dir, suffix) {
    let names: string[]
    try {
      names = await readdir(dir)
    } catch (error) {
      if (isMissing(error)) return []
      throw unusablePath(dir, error)
    }

    const files: Array<{name: string; text: string}> = []
    for (const name of names.filter((n) => n.toLowerCase().endsWith(suffix.toLowerCase())).sort()) {
      if ((await this.kind(join(dir, name))) !== 'file') continue
      const text = await readSettingsText(join(dir, name))
      if (text !== null) files.push({name, text})
    }

    return files
  },

  async readFileTree(dir) {
    const entries: Array<{name: string; text: string}> = []
    const walk = async (relative: string): Promise<void> => {
      let names: string[]
      try {
        names = await readdir(join(dir, relative))
      } catch (error) {
        if (isMissing(error) && relative === '') return
        throw unusablePath(join(dir, relative), error)
      }

      for (const name of names.sort()) {
        const path = relative === '' ? name : `${relative}/${name}`
        const text = await entryText(join(dir, path))
        if (text === 'directory') await walk(path)
        else if (text !== null) entries.push({name: path, text})
      }
    }

    await walk('')
    return entries
  },
}

/**
 * What stands for one entry of a tree in a digest: a file's SHA-256 (any size, any bytes), a
 * link's target (not followed: where it leads is the reader's to check), `directory`, or `null`
 * when it vanished meanwhile. Nothing is run or waited on: a FIFO is only named.
 */
async function entryText(path: string): Promise<string | null> {
  try {
    const stats = await lstat(path)
    if (stats.isDirectory()) return 'directory'
    if (stats.isSymbolicLink()) return `link ${await readlink(path)}`
    if (!stats.isFile()) return 'other'
    const handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
    try {
      return `file ${createHash('sha256')
        .update(await handle.readFile())
        .digest('hex')}`
    } finally {
      await handle.close()
    }
  } catch (error) {
    if (isMissing(error)) return null
    throw unusablePath(path, error)
  }
}

/** What `config set` / `unset` use; `writeText` is the atomic writer (src/adapters/atomic-write.ts). */
export function nodeSettingsWriteIO(writeText: SettingsWriteIO['writeText']): SettingsWriteIO {
  return {
    fileMode,
    async mkdir(dir, mode) {
      await mkdir(dir, {mode, recursive: true})
    },
    readText: readSettingsText,
    writeText,
  }
}

/** A file's permission bits; `undefined` when there is no file, or no such bits (Windows). */
export async function fileMode(path: string): Promise<number | undefined> {
  if (process.platform === 'win32') return undefined
  try {
    return (await stat(path)).mode & 0o777
  } catch (error) {
    if (isMissing(error)) return undefined
    throw error
  }
}

/** The text of a settings file (or `.gitignore`), `null` when there is none. */
export async function readSettingsText(path: string): Promise<string | null> {
  const handle = await openSettingsFile(path)
  if (handle === null) return null
  try {
    // Reads up to one byte past the limit instead of trusting the size: the file may grow meanwhile.
    // Unzeroed memory is fine: only the bytes read are decoded.
    const buffer = Buffer.allocUnsafe(MAX_SETTINGS_BYTES + 1)
    let length = 0
    for (;;) {
      const {bytesRead} = await handle.read(buffer, length, buffer.length - length, length)
      if (bytesRead === 0) break
      length += bytesRead
      if (length > MAX_SETTINGS_BYTES) throw tooLarge(path)
    }

    return buffer.toString('utf8', 0, length)
  } finally {
    await handle.close()
  }
}

/** An open handle on `path`, checked to be a regular file within the size limit; `null` when there is no file. */
async function openSettingsFile(path: string): Promise<FileHandle | null> {
  let handle: FileHandle
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    if (isMissing(error)) return null
    throw error
  }

  try {
    const info = await handle.stat()
    if (!info.isFile())
      throw new ConfigError(`Cannot use ${path}: it is not a regular file`, path, undefined, {
        hint: 'replace it with a JSON file, or remove it',
      })
    if (info.size > MAX_SETTINGS_BYTES) throw tooLarge(path)
    return handle
  } catch (error) {
    await handle.close()
    throw error
  }
}

/**
 * A path the loader looks at (a settings file, `.hanzo/`, `.git`) that cannot even be checked:
 * a symbolic link loop, or a directory the user may not enter. It names the path and the code
 * instead of surfacing a raw errno with a stack.
 */
function unusablePath(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code
  if (typeof code !== 'string') return error
  const why =
    code === 'ELOOP'
      ? ': a symbolic link that leads back to itself'
      : code === 'EACCES' || code === 'EPERM'
        ? ': permission denied'
        : ''
  return new ConfigError(`Cannot use ${path} (${code}${why})`, path, undefined, {hint: `fix or remove ${path}`})
}

function tooLarge(path: string): ConfigError {
  return new ConfigError(`Cannot use ${path}: it is larger than 1 MiB, too large for a settings file`, path)
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ENOTDIR'
}
