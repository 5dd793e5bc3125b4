import {describe, expect, it} from 'vitest'

import {oneLine, printable} from '../src/terminal-text.js'

// Each vector is text a model, a server, a tool or a file could send; the terminal must show it, never obey it.
describe('printable', () => {
  it('shows an OSC 52 clipboard write instead of sending it', () => {
    expect(printable('a\u001B]52;c;cHduZWQ=\u0007b')).toBe('a^[]52;c;cHduZWQ=^Gb')
    expect(printable('a\u001B]52;c;cHduZWQ=\u001B\\b')).toBe('a^[]52;c;cHduZWQ=^[\\b')
  })

  it('shows an OSC 0 window title, a CSI and a lone ESC', () => {
    expect(printable('\u001B]0;pwned\u0007title')).toBe('^[]0;pwned^Gtitle')
    expect(printable('\u001B[2J\u001B[31mred\u001B[0m')).toBe('^[[2J^[[31mred^[[0m')
    expect(printable('end \u001B')).toBe('end ^[')
  })

  it('shows C1 controls: the one-byte CSI, OSC and ST', () => {
    expect(printable('\u009B2J\u009D52;c;eA==\u009C')).toBe('<U+009B>2J<U+009D>52;c;eA==<U+009C>')
  })

  it('shows bidi overrides and invisible characters', () => {
    expect(printable('abc\u202Efed\u202C\u2066x\u2069\u200B')).toBe('abc<U+202E>fed<U+202C><U+2066>x<U+2069><U+200B>')
    expect(printable('\u{E0041}\u{E0042}')).toBe('<U+E0041><U+E0042>')
  })

  it('keeps line ends and tabs; a CRLF is a line end, a lone CR is shown', () => {
    expect(printable('one\r\ntwo\n\tthree')).toBe('one\ntwo\n\tthree')
    expect(printable('progress 10%\rprogress 99%')).toBe('progress 10%^Mprogress 99%')
  })

  it('shows the other C0 controls and DEL in caret notation', () => {
    expect(printable('\u0000\u0007\u0008\u000B\u000C\u001F\u007F')).toBe('^@^G^H^K^L^_^?')
  })

  it('keeps valid text whole: accents, CJK, emoji with joiners, variation selectors and flags', () => {
    const text = 'café 名前 👩\u200D💻 ❤\uFE0F 🇫🇷 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F} 👍🏽'
    expect(printable(text)).toBe(text)
  })

  it('is the same when applied twice', () => {
    const once = printable('\u001B]52;c;eA==\u0007\u202E\r')
    expect(printable(once)).toBe(once)
  })
})

describe('oneLine', () => {
  it('puts the text on one line: newlines as ⏎, tabs as spaces', () => {
    expect(oneLine('a\nb\r\nc\td')).toBe('a ⏎ b ⏎ c d')
  })

  it('shows what a terminal would act on as printable does', () => {
    expect(oneLine('red \u001B[31m text \u202E \u001B]0;t\u0007 \r')).toBe('red ^[[31m text <U+202E> ^[]0;t^G ^M')
    expect(oneLine('👩\u200D💻')).toBe('👩\u200D💻')
  })

  it('cuts long text', () => {
    const line = oneLine('x'.repeat(1_000_000))
    expect([...line]).toHaveLength(120)
    expect(line.endsWith('…')).toBe(true)
    expect(oneLine('y'.repeat(120))).toBe('y'.repeat(120))
    expect(oneLine('z'.repeat(300), 200)).toBe(`${'z'.repeat(199)}…`)
  })
})
