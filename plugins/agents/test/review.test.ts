import {describe, expect, it} from 'vitest'

import {parseReview} from '../src/review.js'

describe('the reviewer verdict', () => {
  it.each([
    ['pass', 'Looks right.\n\nVERDICT: pass\n', {problems: [], verdict: 'pass'}],
    [
      'fail with problems',
      'Two issues.\nVERDICT: fail\n- the flag is not documented in README.md\n* no test covers it\n',
      {problems: ['the flag is not documented in README.md', 'no test covers it'], verdict: 'fail'},
    ],
    ['markdown bold and any case', '**Verdict:** FAIL\n- x', {problems: ['x'], verdict: 'fail'}],
    [
      'the last verdict line',
      'Answer with VERDICT: pass or\nVERDICT: fail\nlater:\nVERDICT: pass',
      {problems: [], verdict: 'pass'},
    ],
    ['no verdict', 'It is probably fine.', {problems: [], verdict: 'unclear'}],
    ['an unknown word', 'VERDICT: maybe', {problems: [], verdict: 'unclear'}],
  ])('%s', (_, answer, review) => {
    expect(parseReview(answer)).toEqual(review)
  })
})
