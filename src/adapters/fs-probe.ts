import {randomBytes} from 'node:crypto'
import {mkdir, unlink, writeFile} from 'node:fs/promises'
import {join} from 'node:path'

/** Creates `dir` if needed and writes then removes a probe file; returns the error text or null. */
export async function probeWritable(dir: string): Promise<string | null> {
  const probe = join(dir, `.probe-${randomBytes(6).toString('hex')}`)
  try {
    await mkdir(dir, {mode: 0o700, recursive: true})
    await writeFile(probe, '', {flag: 'wx', mode: 0o600})
    await unlink(probe)
    return null
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error)
  }
}
