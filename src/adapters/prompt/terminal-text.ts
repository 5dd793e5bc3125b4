/*
 * Text from the model, a tool or a plugin, made safe to write to a terminal. Its own module, with
 * no imports: the interactive prompt needs it before anything heavy has loaded.
 */

const MAX_LINE_LENGTH = 120
/** Control and format characters (escape sequences, bidi overrides): the model wrote this text, the terminal must not obey it. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}]/gu
/** The same less line ends, tabs and the joiner inside emoji sequences: what a multi-line text keeps. */
const UNPRINTABLE_IN_TEXT = /(?![\n\t\u200D])[\p{Cc}\p{Cf}]/gu

/**
 * Text the model wrote, made safe to write to a terminal as it is: line ends (CRLF as LF) and
 * tabs stay, anything else a terminal would act on (ESC, a lone CR, bidi overrides) becomes `�`.
 */
export function printable(text: string): string {
  return text.replaceAll('\r\n', '\n').replaceAll(UNPRINTABLE_IN_TEXT, '\uFFFD')
}

/**
 * `text` safe to show on one terminal line: newlines as `⏎`, anything a terminal would act on
 * as `�`, cut with `…` after `maxLength` characters (120), so a huge input never floods the prompt.
 */
export function oneLine(text: string, maxLength = MAX_LINE_LENGTH): string {
  const head = text.slice(0, maxLength * 2)
  const chars = [...head.replaceAll(/\r?\n/g, ' ⏎ ').replaceAll('\t', ' ').replaceAll(UNPRINTABLE, '\uFFFD')]
  const cut = chars.length > maxLength || head.length < text.length
  return cut ? `${chars.slice(0, maxLength - 1).join('')}…` : chars.join('')
}
