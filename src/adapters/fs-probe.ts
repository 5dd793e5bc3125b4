import {randomBytes} from 'node:crypto'
import {constants} from 'node:fs'
import {access, stat, unlink, writeFile} from 'node:fs/promises'
import {dirname, join} from 'node:path'

/**
 * Whether hanzo-dev could write in `dir`, without leaving anything behind: an existing
 * directory gets a probe file written and removed; a missing one is judged by its nearest
 * existing ancestor (checking must not create the directories it checks).
 * Returns the error text, or null when writable.
 */
export async function probeWritable(dir: string): Promise<string | null> {
  try {
    const stats = await stat(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null
      throw error
    })
    if (!stats) return await probeAncestor(dirname(dir))
    if (!stats.isDirectory()) return 'ENOTDIR'
    const probe = join(dir, `.probe-${randomBytes(6).toString('hex')}`)
    await writeFile(probe, '', {flag: 'wx', mode: 0o600})
    await unlink(probe)
    return null
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error)
  }
}

async function probeAncestor(dir: string): Promise<string | null> {
  const stats = await stat(dir).catch(() => null)
  if (!stats) return dir === dirname(dir) ? 'ENOENT' : probeAncestor(dirname(dir))
  if (!stats.isDirectory()) return 'ENOTDIR'
  await access(dir, constants.W_OK | constants.X_OK)
  return null
}
