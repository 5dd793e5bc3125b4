import {describe, expect, it} from 'vitest'

import {RunInterrupts} from '../../../src/adapters/agent-session/interrupts.js'

describe('RunInterrupts', () => {
  it('cancels the run in progress, a child run inside it too; the next run starts uncancelled', () => {
    const interrupts = new RunInterrupts(undefined)
    const parent = interrupts.begin()
    const child = interrupts.begin()
    interrupts.handle.abort()
    expect([parent.signal.aborted, child.signal.aborted, interrupts.handle.signal.aborted]).toEqual([true, true, true])
    child.end()
    parent.end()
    const next = interrupts.begin()
    expect(next.signal.aborted).toBe(false)
    next.end()
  })

  it("listens to SIGINT only while a run is going, and follows the caller's signal for good", () => {
    const caller = new AbortController()
    const interrupts = new RunInterrupts(caller.signal)
    const before = process.listenerCount('SIGINT')
    const run = interrupts.begin()
    expect(process.listenerCount('SIGINT')).toBe(before + 1)
    caller.abort()
    expect(run.signal.aborted).toBe(true)
    run.end()
    expect(process.listenerCount('SIGINT')).toBe(before)
    const later = interrupts.begin()
    expect(later.signal.aborted).toBe(true)
    later.end()
  })
})
