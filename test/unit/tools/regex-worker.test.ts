import {describe, expect, it} from 'vitest'

import {RegexTimeoutError, RegexWorker} from '../../../src/adapters/tools/regex-worker.js'
import {rejectionOf} from '../../helpers/thrown.js'

const open = (pattern: string, limitMs = 10_000, signal = new AbortController().signal) =>
  RegexWorker.open(pattern, 'u', {limitMs, signal})

describe('RegexWorker', () => {
  it('finds the first match on each line: lines split at \\n, a \\r before it dropped, no line after a final \\n', async () => {
    const worker = open('x+$')
    try {
      expect(await worker.match(['axx\r\nb\n\nxx', '', 'x\n'])).toEqual([
        [
          {at: 1, end: 3, line: 0, start: 0},
          {at: 0, end: 10, line: 3, start: 8},
        ],
        [],
        [{at: 0, end: 1, line: 0, start: 0}],
      ])
    } finally {
      worker.close()
    }
  })

  it('answers batches in the order they were given, and a thread given back serves the next regex', async () => {
    const first = open('7')
    const texts = Array.from({length: 200}, (_, i) => `n${i}`)
    const answers = await Promise.all(texts.map((text) => first.match([text])))
    first.close()
    expect(answers.flatMap(([found], i) => (found.length > 0 ? [texts[i]] : []))).toEqual(
      texts.filter((t) => t.includes('7')),
    )
    const second = open('^n1$')
    expect(await second.match(['n1\nn2'])).toEqual([[{at: 0, end: 2, line: 0, start: 0}]])
    second.close()
  })

  it('stops a regex past its time, naming the text it was on and failing every later batch', async () => {
    const worker = open('(a+)+b', 200)
    const slow = worker.match(['ab', 'a'.repeat(40_000), 'ab'])
    const later = worker.match(['ab'])
    expect(await rejectionOf(slow)).toMatchObject({index: 1, limitMs: 200, name: 'RegexTimeoutError'})
    expect(await rejectionOf(later)).toBeInstanceOf(RegexTimeoutError)
    expect(await rejectionOf(worker.match(['ab']))).toBeInstanceOf(RegexTimeoutError)
    worker.close()
  })
})
