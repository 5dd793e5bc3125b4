import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {Backoff, ProtocolError} from '../../src/core/protocol/index.js'
import {REPO_ROOT} from '../helpers/cli.js'
import {thrownBy} from '../helpers/thrown.js'

type Step =
  {random: number; delay: number; ceiling: number} | {random: number; error: string} | {reset: true} | {advance: number}

interface Vector {
  name: string
  description: string
  baseMs: number
  maxMs: number
  steps?: Step[]
  expect?: {error: string}
}

const {cases} = JSON.parse(readFileSync(join(REPO_ROOT, 'test-vectors', 'backoff-timing.json'), 'utf8')) as {
  cases: Vector[]
}

function errorCode(run: () => unknown): string | undefined {
  const error = thrownBy(run)
  if (error !== undefined) expect(error).toBeInstanceOf(ProtocolError)
  return (error as ProtocolError | undefined)?.code
}

describe('backoff-timing vectors (HIP-301 §15)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, vector) => {
    if (vector.expect?.error) {
      expect(errorCode(() => new Backoff({baseMs: vector.baseMs, maxMs: vector.maxMs}))).toBe(vector.expect.error)
      return
    }

    let next = 0.5
    const backoff = new Backoff({baseMs: vector.baseMs, maxMs: vector.maxMs, random: () => next})
    for (const [index, step] of (vector.steps ?? []).entries()) {
      const where = `step ${index}`
      if ('reset' in step) {
        backoff.reset()
      } else if ('advance' in step) {
        next = 0.5
        for (let i = 0; i < step.advance; i++) {
          const delay = backoff.nextDelay()
          if (!(Number.isInteger(delay) && delay >= 0 && delay <= vector.maxMs))
            expect.fail(`${where}: delay ${delay} outside [0, ${vector.maxMs}]`)
        }
      } else if ('error' in step) {
        next = step.random
        expect(
          errorCode(() => backoff.nextDelay()),
          where,
        ).toBe(step.error)
      } else {
        next = step.random
        expect(backoff.ceiling(), where).toBe(step.ceiling)
        expect(backoff.nextDelay(), where).toBe(step.delay)
      }
    }
  })
})
