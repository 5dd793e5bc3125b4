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
    // Signal 0 only asks whether any member is left. Zombies count (an orphan whose reaper does
    // not reap stays one), so such a group gets the SIGKILL too, which is harmless.
    if (!signalGroup(pgid, 0)) return true
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
