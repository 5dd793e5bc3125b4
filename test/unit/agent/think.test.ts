import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {stripThinkBlock, ThinkBlockFilter} from '../../../src/core/agent/think.js'
import {splitAt} from '../../helpers/chunking.js'

describe('think blocks', () => {
  it.each([
    ['<think>plan</think>Answer', 'Answer'],
    ['  \n<think>plan</think>\n\nAnswer', 'Answer'],
    ['<think>never closed', ''],
    ['Answer <think>kept</think>', 'Answer <think>kept</think>'],
    ['<thinking>not the tag', '<thinking>not the tag'],
    ['<', '<'],
  ])('%j shows %j', (reply, shown) => {
    expect(stripThinkBlock(reply)).toBe(shown)
  })

  it('shows the same text streamed in any pieces as stripThinkBlock of the whole', () => {
    const reply = fc.tuple(
      fc.constantFrom('', ' ', '<think>', '<th', '</think>', 'a<b'),
      fc.string({maxLength: 12}),
      fc.constantFrom('', '</think>', '</th'),
      fc.constantFrom('', ' ', '\n\n'),
      fc.string({maxLength: 12}),
    )
    fc.assert(
      fc.property(reply, fc.array(fc.nat(), {maxLength: 6}), (parts, cuts) => {
        const whole = parts.join('')
        const filter = new ThinkBlockFilter()
        const shown =
          splitAt(
            whole,
            cuts.map((c) => c % (whole.length + 1)),
          )
            .map((d) => filter.push(d))
            .join('') + filter.end()
        expect(shown).toBe(stripThinkBlock(whole))
      }),
      {numRuns: 2000},
    )
  })
})
