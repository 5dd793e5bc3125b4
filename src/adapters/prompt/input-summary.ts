import {toolSubject} from '../../core/permissions/index.js'

const MAX_SUMMARY_LENGTH = 120
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
 * One short line saying what a call would do: the command for exec, the path for file tools,
 * the input as JSON for other tools.
 */
export function summarizeToolInput(toolName: string, input: Readonly<Record<string, unknown>>): string {
  const subject = toolSubject(toolName, input)
  return oneLine(subject === undefined ? JSON.stringify(input) : subject.kind === 'command' ? subject.command : subject.path)
}

/**
 * `text` safe to show on one terminal line: newlines as `⏎`, anything a terminal would act on
 * as `�`, cut with `…` after `maxLength` characters (120), so a huge input never floods the prompt.
 */
export function oneLine(text: string, maxLength = MAX_SUMMARY_LENGTH): string {
  const head = text.slice(0, maxLength * 2)
  const chars = [...head.replaceAll(/\r?\n/g, ' ⏎ ').replaceAll('\t', ' ').replaceAll(UNPRINTABLE, '\uFFFD')]
  const cut = chars.length > maxLength || head.length < text.length
  return cut ? `${chars.slice(0, maxLength - 1).join('')}…` : chars.join('')
}
