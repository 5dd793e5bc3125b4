import {describe, expect, it} from 'vitest'

import {fitRow, LiveRegion, wrapLine} from '../../../src/ui/live-region.js'
import {Screen} from '../../helpers/screen.js'

/** A live region on a `width`-column terminal: every write is played on `screen` and kept. */
function terminal(width: number) {
  const screen = new Screen(width)
  const writes: string[] = []
  const out = {
    columns: width,
    write(text: string) {
      writes.push(text)
      screen.write(text)
    },
  }
  return {out, region: new LiveRegion(out), screen, writes}
}

const bold = (s: string) => `\u001B[1m${s}\u001B[22m`
const link = (url: string, s: string) => `\u001B]8;;${url}\u0007${s}\u001B]8;;\u0007`

describe('LiveRegion', () => {
  it('draws its lines in one synchronized update, the cursor where it is asked and shown', () => {
    const {region, screen, writes} = terminal(40)
    region.draw(['› hello', 'status'], {column: 7, line: 0})
    expect(screen.lines).toEqual(['› hello', 'status'])
    expect([screen.row, screen.column, screen.cursorVisible]).toEqual([0, 7, true])
    expect(writes).toHaveLength(1)
    expect(writes[0].startsWith('\u001B[?2026h\u001B[?25l')).toBe(true)
    expect(writes[0].endsWith('\u001B[?2026l')).toBe(true)
  })

  it('without a cursor leaves it hidden at the start of the last row', () => {
    const {region, screen} = terminal(40)
    region.draw(['thinking…', 'status'])
    expect([screen.row, screen.column, screen.cursorVisible]).toEqual([1, 0, false])
  })

  it('redraws in place: a shorter drawing leaves nothing of the longer one', () => {
    const {region, screen} = terminal(40)
    region.draw(['a partial reply', 'a question?', '› typed', 'status'], {column: 7, line: 2})
    region.draw(['› ', 'status'], {column: 2, line: 0})
    expect(screen.lines).toEqual(['›', 'status'])
    expect([screen.row, screen.column]).toEqual([0, 2])
    region.draw(['one', 'two', 'three'], {column: 1, line: 1})
    region.draw(['one', 'two', 'three', 'four'], {column: 0, line: 3})
    expect(screen.lines).toEqual(['one', 'two', 'three', 'four'])
  })

  it('commits text above itself for good and draws again below it', () => {
    const {region, screen} = terminal(40)
    region.draw(['› ', 'status'], {column: 2, line: 0})
    region.commit('Welcome\nline two\n')
    region.commit('› a prompt')
    expect(screen.lines).toEqual(['Welcome', 'line two', '› a prompt', '›', 'status'])
    expect([screen.row, screen.column]).toEqual([3, 2])
    region.draw(['› next'], {column: 6, line: 0})
    expect(screen.lines).toEqual(['Welcome', 'line two', '› a prompt', '› next'])
  })

  it('commits nothing for empty text', () => {
    const {region, writes} = terminal(40)
    region.draw(['› '], {column: 2, line: 0})
    region.commit('')
    expect(writes).toHaveLength(1)
  })

  it('counts the rows a long line wraps to, so the next drawing replaces all of them', () => {
    const {region, screen} = terminal(10)
    region.draw(['› abcdefghijklmnopqrstuvw', 'status'], {column: 10, line: 0})
    expect(screen.lines).toEqual(['› abcdefgh', 'ijklmnopqr', 'stuvw', 'status'])
    // Offset 10 is the 11th character, `i`: the first column of the second row.
    expect([screen.row, screen.column]).toEqual([1, 0])
    region.commit('done')
    expect(screen.lines).toEqual(['done', '› abcdefgh', 'ijklmnopqr', 'stuvw', 'status'])
    region.draw(['› ', 'status'], {column: 2, line: 0})
    expect(screen.lines).toEqual(['done', '›', 'status'])
  })

  it('keeps the cursor on the last column when the text fills its row exactly', () => {
    const {region, screen} = terminal(10)
    region.draw(['› abcdefgh', 'status'], {column: 10, line: 0})
    expect(screen.lines).toEqual(['› abcdefgh', 'status'])
    expect([screen.row, screen.column]).toEqual([0, 9])
  })

  it('counts wide CJK characters as two columns and wraps one whole when a single column is left', () => {
    const {region, screen} = terminal(11)
    region.draw(['› 中文字符测试', 'status'], {column: 4, line: 0})
    // `› ` is 2 columns, 4 CJK characters fill 8 more; the 5th would need columns 11-12.
    expect(screen.lines).toEqual(['› 中文字符', '测试', 'status'])
    expect([screen.row, screen.column]).toEqual([0, 6])
    region.draw(['› 中文字符测试', 'status'], {column: 7, line: 0})
    expect([screen.row, screen.column]).toEqual([1, 2])
    region.draw(['› ', 'status'], {column: 2, line: 0})
    expect(screen.lines).toEqual(['›', 'status'])
    expect(wrapLine('中文中文中文', 5).map((row) => [row.start, row.text])).toEqual([
      [0, '中文'],
      [2, '中文'],
      [4, '中文'],
    ])
  })

  it('counts an emoji of several code points at its widest, and never splits it across rows', () => {
    // tmux draws the family in 2 columns, a terminal that does not join ZWJ parts in 6; the skin
    // tone tmux draws apart (4), newer terminals in 2. Counted too narrow, the terminal would wrap
    // the row itself and the next drawing would leave part of this one behind.
    const family = '👨‍👩‍👧'
    const thumbs = '👍🏽'
    const {region, screen} = terminal(10)
    region.draw([family.repeat(3), thumbs.repeat(3), '❤️😀😀😀😀😀x'], {column: 2 + 5 * 2, line: 2})
    expect(screen.lines).toEqual([family, family, family, thumbs.repeat(2), thumbs, '❤️😀😀😀😀', '😀x'])
    expect([screen.row, screen.column]).toEqual([6, 2])
    region.draw(['› '], {column: 2, line: 0})
    expect(screen.lines).toEqual(['›'])
    expect(wrapLine(`abc${family}${family}`, 10).map((row) => [row.start, row.text])).toEqual([
      [0, `abc${family}`],
      [3 + family.length, family],
    ])
  })

  it('draws colours and OSC-8 links but counts no columns for them', () => {
    const {region, screen} = terminal(10)
    const line = `${bold('› ')}${link('https://example.com/a', 'abcd')}\u001B[36mefgh\u001B[39m`
    region.draw([line, bold('status')], {column: 10, line: 0})
    expect(screen.lines).toEqual(['› abcdefgh', 'status'])
    expect([screen.row, screen.column]).toEqual([0, 9])
    expect(wrapLine(`${bold('0123456789')}x`, 10)).toEqual([
      {start: 0, text: '\u001B[1m0123456789\u001B[22m'},
      {start: 10, text: 'x'},
    ])
  })

  it('draws a tab as spaces to the next stop of 8, counted, with the cursor after it', () => {
    const {region, screen} = terminal(12)
    region.draw(['› a\tb\tc', 'status'], {column: 4, line: 0})
    expect(screen.lines).toEqual(['› a     b', '        c', 'status'])
    expect([screen.row, screen.column]).toEqual([0, 8])
    // The second tab does not fit after `b`: it starts the next row, and the cursor after it is there.
    region.draw(['› a\tb\tc', 'status'], {column: 6, line: 0})
    expect([screen.row, screen.column]).toEqual([1, 8])
    region.draw(['› ', 'status'], {column: 2, line: 0})
    expect(screen.lines).toEqual(['›', 'status'])
  })

  it('puts the cursor on a line above the last, then erases from there on the next drawing', () => {
    const {region, screen} = terminal(20)
    region.draw(['› first', '  second', 'notice', 'status'], {column: 4, line: 1})
    expect([screen.row, screen.column]).toEqual([1, 4])
    region.draw(['› first', 'status'], {column: 7, line: 0})
    expect(screen.lines).toEqual(['› first', 'status'])
  })

  it('on release leaves the drawing and puts the shown cursor on a fresh line below it', () => {
    const {region, screen} = terminal(20)
    region.draw(['› bye', 'a notice', 'status'], {column: 5, line: 0})
    region.release()
    expect(screen.lines).toEqual(['› bye', 'a notice', 'status'])
    expect([screen.row, screen.column, screen.cursorVisible]).toEqual([3, 0, true])
    const bare = terminal(20)
    bare.region.draw(['last'])
    bare.region.release()
    expect([bare.screen.row, bare.screen.column]).toEqual([1, 0])
  })

  it('taller than the terminal, draws the bottom rows but one, the cursor row among them', () => {
    const screen = new Screen(10)
    const out = {columns: 10, rows: 6, write: (text: string) => screen.write(text)}
    const region = new LiveRegion(out)
    const reply = Array.from({length: 12}, (_, i) => `row ${i}`.padEnd(10)).join('')
    region.draw([reply, '› typed', 'status'], {column: 7, line: 1})
    expect(screen.lines).toEqual(['row 9', 'row 10', 'row 11', '› typed', 'status'])
    expect([screen.row, screen.column]).toEqual([3, 7])
    // A cursor above the bottom rows keeps its row in view: the rows from it down are drawn.
    region.draw([reply, '› typed', 'status'], {column: 0, line: 0})
    expect(screen.lines).toEqual(['row 0', 'row 1', 'row 2', 'row 3', 'row 4'])
    expect([screen.row, screen.column]).toEqual([0, 0])
    region.draw(['› ', 'status'], {column: 2, line: 0})
    expect(screen.lines).toEqual(['›', 'status'])
  })

  it('after a resize draws at the new width', () => {
    const {out, region, writes} = terminal(20)
    region.draw(['› abcdefghijklmnop', 'status'], {column: 18, line: 0})
    out.columns = 10
    region.draw(['› abcdefghijklmnop', 'status'], {column: 18, line: 0})
    // The drawing made at 20 columns is erased from its cursor row; the new one wraps at 10.
    const narrow = new Screen(10)
    narrow.write(writes.at(-1)!)
    expect(narrow.lines).toEqual(['› abcdefgh', 'ijklmnop', 'status'])
    expect([narrow.row, narrow.column]).toEqual([1, 8])
  })

  it('after the terminal narrowed, erases every row its reflow made of the drawing, so none is left twice', () => {
    const {out, region, writes} = terminal(40)
    const question = 'Allow fs_write: a-rather-long-name.txt?'
    region.draw([question, '  y allow once   a allow for session', '› ', 'status'], {column: 2, line: 2})
    out.columns = 20
    region.draw([question, '  y allow once', '  a for session', '› ', 'status'], {column: 2, line: 3})
    // The terminal (tmux, VTE, iTerm) rewrapped each 39-column row to two of 20: four rows above the cursor, not two.
    expect(writes.at(-1)!.startsWith('\u001B[?2026h\u001B[?25l\u001B[4A\r\u001B[J')).toBe(true)
    // Widened again, nothing is rejoined: the rows as drawn at 20 (the question took two) are counted.
    out.columns = 80
    region.draw(['› ', 'status'], {column: 2, line: 0})
    expect(writes.at(-1)!.startsWith('\u001B[?2026h\u001B[?25l\u001B[4A\r\u001B[J')).toBe(true)
  })

  it('clears itself off the screen, the cursor shown, and writes nothing when nothing is drawn', () => {
    const {region, screen, writes} = terminal(20)
    region.clear()
    expect(writes).toEqual([])
    region.commit('kept')
    region.draw(['⠋ Thinking… 3s'])
    region.clear()
    expect(screen.lines).toEqual(['kept'])
    expect([screen.row, screen.column, screen.cursorVisible]).toEqual([1, 0, true])
    const count = writes.length
    region.clear()
    expect(writes).toHaveLength(count)
  })
})

describe('fitRow', () => {
  it('keeps a line that fits, and cuts one that would wrap with an ellipsis, counting wide characters', () => {
    expect(fitRow('model · prompt', 14)).toBe('model · prompt')
    expect(fitRow('model · prompt · /help', 14)).toBe('model · promp…')
    expect(fitRow('模型 · prompt', 8)).toBe('模型 · …')
  })
})
