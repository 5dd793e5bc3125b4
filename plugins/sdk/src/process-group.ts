import {readdirSync, readFileSync} from 'node:fs'
import {setTimeout as delay} from 'node:timers/promises'

/** How long a process group gets to exit on SIGTERM before SIGKILL. */
export const KILL_GRACE_MS = 2000
const POLL_MS = 50

/**
 * Ends every process in the group `pgid` (a child spawned with `detached: true` leads its own
 * group, and what it starts, `sleep 100 &` included, stays in it): SIGTERM so they can clean up,
 * then SIGKILL to whatever is still there after the grace. Resolves false when the group was
 * already gone, true when there was something to end.
 */
export async function terminateGroup(pgid: number, graceMs = KILL_GRACE_MS): Promise<boolean> {
  if (!signalGroup(pgid, 'SIGTERM')) return false
  for (let waited = 0; waited < graceMs; waited += POLL_MS) {
    await delay(POLL_MS)
    if (!groupHasLiveMember(pgid)) return true
  }

  signalGroup(pgid, 'SIGKILL')
  return true
}

/** False when no process of the group is left (ESRCH) or none may be signalled (EPERM). */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal)
    return true
  } catch {
    return false
  }
}

/**
 * Whether a process of the group `pgid` is still running. Signal 0 answers for zombies too, and
 * a zombie whose reaper is slow (a container's PID 1 that reaps late) would hold every end of a
 * command for the whole grace: on Linux the group's members are looked up in /proc, and a group
 * of zombies only counts as ended. Elsewhere, or when /proc cannot be read, signal 0 decides.
 */
export function groupHasLiveMember(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return true
  }

  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
    } catch {
      continue
    }

    // `pid (comm) state ppid pgrp ...`: comm may hold spaces and parentheses, so fields are counted after the last `)`.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true
  }

  return false
}
