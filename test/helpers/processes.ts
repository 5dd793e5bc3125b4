import {readFileSync} from 'node:fs'
import {setTimeout as delay} from 'node:timers/promises'

/**
 * Whether `pid` is a live process. A zombie counts as dead: an orphan's reaper here may never
 * reap it, and it runs nothing.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }

  try {
    // /proc/<pid>/stat: "pid (comm) S ...", the state after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return process.platform !== 'linux'
  }
}

/** Polls `check` until it holds; generous, because tests never assert timings. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  for (const start = Date.now(); Date.now() - start < timeoutMs; await delay(25)) if (await check()) return
  throw new Error(`timed out waiting until ${what}`)
}
