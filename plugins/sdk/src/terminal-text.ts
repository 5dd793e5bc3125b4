/*
 * The one printer for text hanzo-dev did not write (a model's reply, a server's error message, a
 * tool's or hook's output, a session's prompt, an agent file, a commit message, an MCP server's
 * description, a file name) on its way to a terminal: the terminal shows it and obeys none of it.
 * What a terminal would act on is shown, not dropped, so what the text tried is there to see:
 * C0 controls in caret notation as `cat -v` writes them (ESC as `^[`: an OSC 52 clipboard write
 * reads `^[]52;c;…^G`), DEL as `^?`, C1 controls (the one-byte CSI) and invisible format
 * characters (bidi overrides, zero-width spaces) as `<U+202E>`. JSON output needs none of this
 * (JSON escapes controls) and keeps the text as it came.
 * No imports: the interactive UI loads it (`@hanzo-dev/sdk/terminal-text`) before anything heavy.
 */

const MAX_LINE_LENGTH = 120
/** A flag drawn with tag characters (England, Scotland, Wales): format characters that hide nothing. */
const EMOJI_TAGS = String.raw`\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}`
/** Control and format characters, but the joiner inside emoji sequences. */
const UNPRINTABLE = new RegExp(String.raw`${EMOJI_TAGS}|(?!\u200D)[\p{Cc}\p{Cf}]`, 'gu')
/** The same less line ends and tabs: what a multi-line text keeps. */
const UNPRINTABLE_IN_TEXT = new RegExp(String.raw`${EMOJI_TAGS}|(?![\n\t\u200D])[\p{Cc}\p{Cf}]`, 'gu')

/**
 * Multi-line `text` safe to write to a terminal: line ends (CRLF as LF) and tabs stay; anything
 * else a terminal would act on (ESC, BEL, a lone CR, C1 controls, bidi overrides) is shown as
 * `^[`, `^G`, `^M`, `<U+009B>`, `<U+202E>`.
 */
export function printable(text: string): string {
  return text.replaceAll('\r\n', '\n').replaceAll(UNPRINTABLE_IN_TEXT, shown)
}

/**
 * `text` safe to show on one terminal line: newlines as `⏎`, tabs as spaces, anything else a
 * terminal would act on shown as {@link printable} shows it, cut with `…` after `maxLength`
 * characters (120), so a huge input never floods the screen.
 */
export function oneLine(text: string, maxLength = MAX_LINE_LENGTH): string {
  const head = text.slice(0, maxLength * 2)
  const chars = [...head.replaceAll(/\r?\n/g, ' ⏎ ').replaceAll('\t', ' ').replaceAll(UNPRINTABLE, shown)]
  const cut = chars.length > maxLength || head.length < text.length
  return cut ? `${chars.slice(0, maxLength - 1).join('')}…` : chars.join('')
}

/**
 * {@link printable} for text that arrives in pieces (a streamed reply): a CR ending a piece waits
 * for the next one, since it may be half of a CRLF.
 */
export class PrintableStream {
  private carriageReturn = false

  push(text: string): string {
    let chunk = (this.carriageReturn ? '\r' : '') + text
    this.carriageReturn = chunk.endsWith('\r')
    if (this.carriageReturn) chunk = chunk.slice(0, -1)
    return printable(chunk)
  }

  /** The end of the text: a CR still held ended it, and is dropped. */
  end(): void {
    this.carriageReturn = false
  }
}

function shown(match: string): string {
  const code = match.codePointAt(0) ?? 0
  // The only match longer than one character that starts so is a flag's tag sequence.
  if (code === 0x1_f3_f4) return match
  if (code < 0x20) return `^${String.fromCodePoint(code + 0x40)}`
  if (code === 0x7f) return '^?'
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`
}
