import stringWidth from 'string-width'
import {describe, expect, it} from 'vitest'

import {MdRenderer, type StyledSpan} from '../../../src/core/markdown/index.js'

/** The rendered lines as plain text. */
function rendered(markdown: string, width?: number): string[] {
  const renderer = new MdRenderer(width === undefined ? {} : {width: () => width})
  const spans: StyledSpan[] = [...renderer.renderChunk(markdown), ...renderer.flush()]
  return spans
    .map((span) => span.text)
    .join('')
    .replace(/\n$/, '')
    .split('\n')
}

const WIDE = [
  '| Command | What it does | Where |',
  '|---|---|---|',
  '| hanzo-dev run | runs the agent on one task, headless, and prints its answer | anywhere |',
  '| hanzo-dev chat | the interactive session with a prompt at the bottom | a terminal |',
  '',
].join('\n')

describe('tables fitted to the terminal', () => {
  it('are as wide as their cells without a width, or when they fit', () => {
    const table = '| a | b |\n|---|--:|\n| one | 2 |\n'
    expect(rendered(table)).toEqual(['a   │ b', '────┼──', 'one │ 2'])
    expect(rendered(table, 40)).toEqual(rendered(table))
  })

  it('wrap the cells of the widest columns between words, every row and the rule within the width', () => {
    const lines = rendered(WIDE, 40)
    for (const line of lines) expect(stringWidth(line), line).toBeLessThanOrEqual(40)
    expect(lines.filter((line) => /^─+┼─+┼─+$/.test(line))).toHaveLength(1)
    // Column separators stay lined up on every row, the wrapped ones included.
    const bars = lines.filter((line) => line.includes('│')).map((line) => line.indexOf('│'))
    expect(new Set(bars).size).toBe(1)
    const text = lines.join(' ').replaceAll(/[│─┼]/g, ' ').replaceAll(/\s+/g, ' ')
    for (const word of ['headless,', 'prints', 'interactive', 'anywhere', 'terminal']) expect(text).toContain(word)
    // Words are whole: none is cut across two rows.
    expect(lines.some((line) => /\bhead$|^\s*less/.test(line))).toBe(false)
  })

  it('become a list of "header: value" lines when the columns cannot all keep a readable width', () => {
    const many = [
      '| one | two | three | four | five | six |',
      '|---|---|---|---|---|---|',
      '| alpha beta | gamma delta | epsilon zeta | eta theta | iota kappa | lambda mu |',
      '| 1 | 2 | 3 | 4 | 5 | 6 |',
      '',
    ].join('\n')
    const lines = rendered(many, 40)
    expect(lines).toEqual([
      'one: alpha beta',
      'two: gamma delta',
      'three: epsilon zeta',
      'four: eta theta',
      'five: iota kappa',
      'six: lambda mu',
      '',
      'one: 1',
      'two: 2',
      'three: 3',
      'four: 4',
      'five: 5',
      'six: 6',
    ])
  })

  it('wrap a list line longer than the width', () => {
    const table = `| a | b | c | d | e | f |\n|---|---|---|---|---|---|\n| ${'word '.repeat(12)}| 2 | 3 | 4 | 5 | 6 |\n`
    const lines = rendered(table, 20)
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(20)
    expect(lines[0]).toBe('a: word word word')
  })
})
