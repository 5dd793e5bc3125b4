import {randomBytes} from 'node:crypto'
import {constants} from 'node:fs'
import {link, open, rename, unlink} from 'node:fs/promises'
import {setTimeout as delay} from 'node:timers/promises'

import {UserError} from '../../core/errors.js'
import {Backoff} from '../../core/protocol/backoff.js'
import {cannotUse} from './fs-errors.js'

export interface LockFileOptions {
  /** A lock older than this is left over from a hung or crashed process and is broken. */
  staleMs?: number
  /** How long to wait for another holder before giving up, in ms. */
  timeoutMs?: number
}

/** What a lock file says about its holder. */
interface Holder {
  ino: number
  text: string
  pid?: number
  createdAt: number
}

const DEFAULT_STALE_MS = 30_000
// Longer than the stale limit, so a waiter outlives a holder that hangs and then breaks its lock.
const DEFAULT_TIMEOUT_MS = 40_000

/**
 * Runs `fn` holding `path` as a cross-process lock: a file created with O_EXCL holding the
 * holder's pid, the time and a random token. The lock is advisory: it only excludes processes
 * that use it too. A holder that died (its pid is gone) or has held it past `staleMs` loses it.
 */
export async function withLockFile<T>(path: string, fn: () => Promise<T>, options: LockFileOptions = {}): Promise<T> {
  const token = randomBytes(12).toString('hex')
  const text = JSON.stringify({createdAt: Date.now(), pid: process.pid, token})
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  const backoff = new Backoff({baseMs: 10, maxMs: 500})
  while (!(await tryCreate(path, text))) {
    const holder = await readHolder(path)
    if (holder === undefined) continue
    if (isStale(holder, staleMs)) {
      await breakLock(path, holder)
      continue
    }

    if (Date.now() >= deadline) {
      throw new UserError(
        `Timed out waiting for ${path}, held by ${holder.pid === undefined ? 'another process' : `process ${holder.pid}`}`,
        {
          hint: `if no hanzo-dev is running, remove ${path}`,
        },
      )
    }

    await delay(backoff.nextDelay())
  }

  try {
    return await fn()
  } finally {
    await release(path, text)
  }
}

async function tryCreate(path: string, text: string): Promise<boolean> {
  try {
    const handle = await open(path, 'wx', 0o600)
    try {
      await handle.writeFile(text, 'utf8')
    } catch (error) {
      await handle.close()
      await unlink(path).catch(() => {})
      throw error
    }

    await handle.close()
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw cannotUse(path, error)
  }
}

/** The current lock's holder; `undefined` when the lock went away meanwhile. */
async function readHolder(path: string): Promise<Holder | undefined> {
  let handle
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return undefined
    if (code === 'ELOOP')
      throw new UserError(`Refusing to use ${path}: it is a symbolic link`, {hint: `remove ${path}`})
    throw cannotUse(path, error)
  }

  try {
    const info = await handle.stat()
    if (!info.isFile())
      throw new UserError(`Refusing to use ${path}: it is not a regular file`, {hint: `remove ${path}`})
    const text = await handle.readFile('utf8')
    // A holder between creating the file and writing it leaves it empty: its age is the file's.
    const parsed = parseHolder(text)
    return {createdAt: parsed.createdAt ?? info.mtimeMs, ino: info.ino, pid: parsed.pid, text}
  } finally {
    await handle.close()
  }
}

function parseHolder(text: string): {pid?: number; createdAt?: number} {
  try {
    const {createdAt, pid} = JSON.parse(text) as {pid?: unknown; createdAt?: unknown}
    return {
      createdAt: typeof createdAt === 'number' ? createdAt : undefined,
      pid: Number.isSafeInteger(pid) && (pid as number) > 0 ? (pid as number) : undefined,
    }
  } catch {
    return {}
  }
}

function isStale(holder: Holder, staleMs: number): boolean {
  return Date.now() - holder.createdAt > staleMs || (holder.pid !== undefined && !isRunning(holder.pid))
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Removes a stale lock without removing a fresh one that replaced it since it was read: the
 * lock is renamed aside first (only one breaker wins the rename), and put back if what was
 * renamed is not the lock judged stale.
 */
async function breakLock(path: string, stale: Holder): Promise<void> {
  const aside = `${path}.${randomBytes(6).toString('hex')}.stale`
  try {
    await rename(path, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw cannotUse(path, error)
  }

  const moved = await readHolder(aside)
  if (moved !== undefined && (moved.ino !== stale.ino || moved.text !== stale.text)) {
    // link fails if yet another process took the lock meanwhile; then that one holds it.
    await link(aside, path).catch(() => {})
  }

  await unlink(aside).catch(() => {})
}

async function release(path: string, text: string): Promise<void> {
  // A holder that outlived staleMs may have lost the lock to another process: leave theirs alone.
  const holder = await readHolder(path).catch(() => undefined)
  if (holder?.text === text) await unlink(path).catch(() => {})
}
