import {Chalk} from 'chalk'
import {describe, expect, it} from 'vitest'

import {ReplyPrinter} from '../../../src/cli/reply-printer.js'

const plain = new Chalk({level: 0})
const colour = new Chalk({level: 1})

describe('ReplyPrinter', () => {
  it('returns complete rendered lines and shows the unfinished one as sent', () => {
    const printer = new ReplyPrinter(plain, () => 80)
    expect(printer.push('# Title\nsome **bo')).toBe('Title\n')
    expect(printer.partial).toBe('some **bo')
    expect(printer.push('ld**')).toBe('')
    expect(printer.partial).toBe('some **bold**')
    expect(printer.flush()).toBe('some bold\n')
    expect(printer.partial).toBe('')
  })

  it('keeps a blank line between paragraphs', () => {
    const printer = new ReplyPrinter(plain, () => 80)
    expect(printer.push('one\n\ntwo\n')).toBe('one\n\ntwo\n')
  })

  it('defuses the escape sequences, lone CRs and bidi overrides the model writes', () => {
    const printer = new ReplyPrinter(colour, () => 80)
    const out =
      printer.push('a\u001B]52;c;cHduZWQ=\u0007b\u001B[2Jc\rd\u202Ee\n') +
      printer.push('[x](http://a\u001B]8;;evil\u0007)\n')
    expect(out).not.toContain('\u001B]52')
    expect(out).not.toContain('\u001B[2J')
    expect(out).not.toContain('\r')
    expect(out).not.toContain('\u202E')
    expect(out).not.toContain('\u0007')
    expect(out).toContain('a^[]52;c;cHduZWQ=^Gb^[[2Jc^Md<U+202E>e')
  })

  it('takes a CRLF split across two chunks as one line end', () => {
    const printer = new ReplyPrinter(plain, () => 80)
    expect(printer.push('one\r')).toBe('')
    expect(printer.push('\ntwo\r\n')).toBe('one\ntwo\n')
  })

  it('keeps the joiner of an emoji sequence', () => {
    const printer = new ReplyPrinter(plain, () => 80)
    expect(printer.push('👩\u200D💻 done\n')).toBe('👩\u200D💻 done\n')
  })

  it("wraps to the terminal's width as it is when each line completes", () => {
    let columns = 20
    const printer = new ReplyPrinter(plain, () => columns)
    expect(printer.push('the quick brown fox jumps over\n')).toBe('the quick brown fox\njumps over\n')
    columns = 40
    expect(printer.push('the quick brown fox jumps over\n')).toBe('the quick brown fox jumps over\n')
  })

  it('says what a block holds back until it is complete', () => {
    const printer = new ReplyPrinter(plain, () => 80)
    expect(printer.push('```ts\nconst a = 1\nconst b = 2\n')).toBe('')
    expect(printer.held).toBe('… 3 lines of a block, shown when it is complete')
    expect(printer.push('```\n')).toBe('const a = 1\nconst b = 2\n')
    expect(printer.held).toBeUndefined()
  })
})
