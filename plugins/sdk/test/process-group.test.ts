import {spawn} from 'node:child_process'
import {once} from 'node:events'
import {describe, expect, it} from 'vitest'

import {groupHasLiveMember, terminateGroup} from '../src/index.js'

/** A detached group: its leader `sleep`, and a child of the leader that exits at once and stays a zombie (sleep never reaps). */
async function groupWithZombie() {
  const leader = spawn('sh', ['-c', 'true & exec sleep 30'], {detached: true, stdio: 'ignore'})
  await once(leader, 'spawn')
  return leader
}

describe.runIf(process.platform === 'linux')('process groups', () => {
  it('counts a running member as live, and a group of zombies as ended', async () => {
    const leader = await groupWithZombie()
    const pgid = leader.pid!
    expect(groupHasLiveMember(pgid)).toBe(true)
    process.kill(pgid, 'SIGKILL')
    await once(leader, 'exit')
    // Only the zombie may be left (until a reaper takes it): nothing runs.
    expect(groupHasLiveMember(pgid)).toBe(false)
  })

  it('ends a group at once when only zombies are left after SIGTERM (no grace sat out)', async () => {
    const leader = await groupWithZombie()
    const exited = once(leader, 'exit')
    // A grace longer than the test's own timeout: only a group seen as ended lets it resolve.
    expect(await terminateGroup(leader.pid!, 60_000)).toBe(true)
    await exited
  })
})
