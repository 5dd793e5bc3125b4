import {execFileSync} from 'node:child_process'
import {readdirSync, readFileSync} from 'node:fs'
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

/** Live processes (pids) whose command line holds `marker`: what a test started and must see ended. */
export function processesWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .map(Number)
    .filter((pid) => {
      try {
        return isAlive(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)
      } catch {
        return false
      }
    })
}

/** Whether bubblewrap can make its namespaces here (a container may forbid them). */
export function bwrapWorks(): boolean {
  try {
    execFileSync('bwrap', ['--unshare-all', '--ro-bind', '/', '/', 'true'], {stdio: 'ignore', timeout: 5000})
    return true
  } catch {
    return false
  }
}
