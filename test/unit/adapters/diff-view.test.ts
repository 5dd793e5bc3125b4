import stringWidth from 'string-width'
import {describe, expect, it} from 'vitest'

import {changePreview} from '../../../src/adapters/prompt/change-preview.js'
import {diffRows} from '../../../src/adapters/prompt/diff-view.js'

const LONG = 'const message = "a line of code far longer than forty columns of a narrow terminal"'

describe('diff lines fitted to the terminal', () => {
  it('wrap between words, the +/- gutter on every continuation row', () => {
    expect(diffRows(`+${LONG}`, 40)).toEqual([
      '+const message = "a line of code far',
      '+longer than forty columns of a narrow',
      '+terminal"',
    ])
    expect(diffRows(`-${LONG}`, 40).every((row) => row.startsWith('-'))).toBe(true)
    expect(diffRows(` ${LONG}`, 40).every((row) => row.startsWith(' '))).toBe(true)
  })

  it('stay whole when they fit, off a terminal, or when the terminal is too narrow to help', () => {
    expect(diffRows('+short', 40)).toEqual(['+short'])
    expect(diffRows(`+${LONG}`)).toEqual([`+${LONG}`])
    expect(diffRows(`+${LONG}`, 10)).toEqual([`+${LONG}`])
  })

  it("fit a permission question's preview, an edit and a new file, to the columns given", () => {
    const preview = changePreview(
      [
        {after: `one\n${LONG}\nthree\n`, before: 'one\ntwo\nthree\n', path: 'a.ts'},
        {after: `${LONG}\n`, before: null, path: 'b.ts'},
      ],
      undefined,
      40,
    )
    for (const line of preview) expect(stringWidth(line), line).toBeLessThanOrEqual(40)
    expect(preview).toContain('  -two')
    expect(preview).toContain('  +const message = "a line of code far')
    expect(preview).toContain('  +longer than forty columns of a narrow')
    const added = preview.filter((line) => line.startsWith('  +'))
    expect(added.filter((line) => line === '  +terminal"')).toHaveLength(2)
  })
})
