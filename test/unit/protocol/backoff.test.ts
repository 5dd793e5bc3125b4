import {describe, expect, it} from 'vitest'

import {Backoff} from '../../../src/core/protocol/index.js'

describe('Backoff', () => {
  it('draws every delay from [0, ceiling] with the default random source', () => {
    const backoff = new Backoff({baseMs: 100, maxMs: 5000})
    for (let attempt = 0; attempt < 200; attempt++) {
      const ceiling = backoff.ceiling()
      expect(ceiling).toBe(Math.min(5000, 100 * 2 ** attempt))
      const delay = backoff.nextDelay()
      expect(Number.isInteger(delay) && delay >= 0 && delay <= ceiling).toBe(true)
    }

    expect(backoff.attempt).toBe(200)
  })

  it('stays finite and capped at absurd attempt counts', () => {
    const backoff = new Backoff({
      baseMs: Number.MAX_SAFE_INTEGER,
      maxMs: Number.MAX_SAFE_INTEGER,
      random: () => 0.999_999_999,
    })
    expect(backoff.ceiling(1e9)).toBe(Number.MAX_SAFE_INTEGER)
    expect(backoff.ceiling(Number.MAX_SAFE_INTEGER)).toBe(Number.MAX_SAFE_INTEGER)
    expect(backoff.nextDelay()).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER)
  })
})
