import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'

import {BusyLine} from '../../../src/ui/busy-line.js'

describe('BusyLine', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('counts the seconds of the wait, redrawing as it turns, and says how to stop it', () => {
    const redraw = vi.fn()
    const line = new BusyLine(redraw)
    line.start('Thinking')
    expect(line.text).toBe('⠋ Thinking… 0s (Esc to interrupt)')
    vi.advanceTimersByTime(12_000)
    expect(line.text).toMatch(/^\S Thinking… 12s \(Esc to interrupt\)$/)
    expect(redraw).toHaveBeenCalled()
    expect(line.busy).toBe(true)
    line.stop()
    expect([line.text, line.busy]).toEqual([undefined, false])
  })

  it('starts the count again for a new wait, with its own label and hint', () => {
    const line = new BusyLine(() => {}, 'Ctrl-C to cancel')
    line.start('Thinking')
    vi.advanceTimersByTime(5000)
    line.start('Running exec')
    expect(line.text).toMatch(/^\S Running exec… 0s \(Ctrl-C to cancel\)$/)
    line.stop()
  })
})
