import {describe, expect, it} from 'vitest'

import {MdRenderer, type StyledSpan, wrapPlain, wrapSpans} from '../../../src/core/markdown/index.js'

const text = (rows: StyledSpan[][]) => rows.map((row) => row.map((span) => span.text).join(''))
/** The first rendered line of `markdown`, without its newline span. */
const line = (markdown: string) => {
  const spans = new MdRenderer().renderChunk(`${markdown}\n`)
  return spans.slice(
    0,
    spans.findIndex((span) => span.text === '\n'),
  )
}

describe('wrapSpans', () => {
  it('leaves a line that fits as it is', () => {
    expect(text(wrapSpans(line('short **line**'), 20))).toEqual(['short line'])
  })

  it('breaks between words, drops the blank at the break, and keeps each span its style', () => {
    const rows = wrapSpans(line('one two **three four** five'), 12)
    expect(text(rows)).toEqual(['one two', 'three four', 'five'])
    expect(rows[1]).toEqual([{style: {bold: true}, text: 'three four'}])
  })

  it('cuts a word wider than the row', () => {
    expect(text(wrapSpans(line('abcdefghij klm'), 4))).toEqual(['abcd', 'efgh', 'ij', 'klm'])
  })

  it('counts wide characters as two columns', () => {
    expect(text(wrapSpans(line('漢字漢字 かな'), 8))).toEqual(['漢字漢字', 'かな'])
    expect(text(wrapSpans(line('漢字漢字漢'), 8))).toEqual(['漢字漢字', '漢'])
  })

  it('hangs a list item under its text and keeps a quote gutter on every row', () => {
    expect(text(wrapSpans(line('- alpha beta gamma'), 12))).toEqual(['• alpha beta', '  gamma'])
    expect(text(wrapSpans(line('  - alpha beta gamma'), 14))).toEqual(['  ◦ alpha beta', '    gamma'])
    expect(text(wrapSpans(line('> alpha beta gamma'), 12))).toEqual(['│ alpha beta', '│ gamma'])
  })
})

describe('wrapPlain', () => {
  it('breaks a message between words', () => {
    expect(wrapPlain('Warning: sandbox: off, the default inside docker', 20)).toEqual([
      'Warning: sandbox:',
      'off, the default',
      'inside docker',
    ])
  })

  it('hangs the rows of a two-column line under its second column, and of an indented line under its text', () => {
    expect(wrapPlain('  /commit [--all]  Commit tracked changes with the model', 40)).toEqual([
      '  /commit [--all]  Commit tracked',
      '                   changes with the',
      '                   model',
    ])
    expect(wrapPlain('    one two three four', 14)).toEqual(['    one two', '    three four'])
  })

  it('leaves a line that fits, and does not hang under a column past half the width', () => {
    expect(wrapPlain('a  b', 4)).toEqual(['a  b'])
    expect(wrapPlain('a-long-first-column  then words', 20)).toEqual(['a-long-first-column', 'then words'])
  })
})
