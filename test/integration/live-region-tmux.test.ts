import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {LiveRegion} from '../../src/ui/live-region.js'
import {Screen} from '../helpers/screen.js'
import {Terminals} from '../helpers/terminal.js'

/**
 * The unit tests read the live region's output on a small interpreter (test/helpers/screen.ts);
 * here the same bytes go to a real terminal, tmux, and both must show the same rows and cursor.
 */
describe('the live region on tmux and on the test interpreter', () => {
  let dir: string
  let terminals: Terminals

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hanzo-region-'))
    terminals = Terminals.create({})
  })
  afterAll(async () => {
    await terminals.close()
    rmSync(dir, {force: true, recursive: true})
  })

  it('agrees on wrapping, wide characters, tabs, styling, commits and redraws', async () => {
    const width = 12
    let bytes = ''
    const frames: string[] = []
    const region = new LiveRegion({columns: width, write: (text: string) => (bytes += text)})
    region.draw(['› abcdefghijklmnopqrstuvw', 'status'], {column: 10, line: 0})
    region.commit('committed\nfor good')
    region.draw(
      [
        'a partial 中文字符测试',
        '👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧👍🏽👍🏽👍🏽🇯🇵🇯🇵🇯🇵❤️✔️',
        '\u001B[1m› \u001B[22ma\tb\tcdef',
        '\u001B]8;;https://example.com\u0007link\u001B]8;;\u0007 status',
      ],
      {column: 4, line: 2},
    )
    frames.push(bytes)
    region.commit('more')
    region.draw(['› 😀😀😀😀😀😀x', 'last status line here'], {column: 14, line: 0})
    frames.push(bytes)

    for (const [index, frame] of frames.entries()) {
      writeFileSync(join(dir, `frame${index}`), frame)
      await terminals.open(`frame${index}`, `cat frame${index}; sleep 60`, {cwd: dir, height: 30, width})
    }

    const shown = await Promise.all(
      frames.map((_, index) =>
        terminals
          .waitFor(`frame${index}`, ['link status', 'line here'][index])
          .then(() => terminals.rows(`frame${index}`)),
      ),
    )
    for (const [index, frame] of frames.entries()) {
      const screen = new Screen(width)
      screen.write(frame)
      expect(shown[index].rows, `frame ${index}`).toEqual(screen.lines)
      expect(shown[index].cursor, `frame ${index}`).toEqual([screen.row, screen.column])
    }

    const last = new Screen(width)
    last.write(frames[1])
    expect(last.lines).toEqual(['committed', 'for good', 'more', '› 😀😀😀😀😀', '😀x', 'last status', 'line here'])
    expect([last.row, last.column]).toEqual([4, 2])
  })

  it('draws a region taller than the terminal without leaving copies of it in the scrollback', async () => {
    let bytes = ''
    const region = new LiveRegion({columns: 20, rows: 8, write: (text: string) => (bytes += text)})
    region.commit('committed line')
    const reply = 'word '.repeat(40)
    for (const more of ['', 'more ', 'more more']) region.draw([reply + more, '› ', 'status'], {column: 2, line: 1})
    writeFileSync(join(dir, 'tall'), bytes)
    await terminals.open('tall', 'cat tall; sleep 60', {cwd: dir, height: 8, width: 20})
    await terminals.waitFor('tall', 'more more')
    const tmux = await terminals.rows('tall', {history: true})
    expect(tmux.rows).toEqual([
      'committed line',
      ...Array.from({length: 4}, () => 'word word word word'),
      'more more',
      '›',
      'status',
    ])
    expect(tmux.cursor).toEqual([6, 2])
  })
})
