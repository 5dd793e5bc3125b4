import {inlineSpans} from './inline.js'
import type {SpanStyle, StyledSpan} from './types.js'

/** Line-level markdown: which block a complete line starts or belongs to. */

export interface FenceOpen {
  marker: string
  language: string
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})\s*(.*)$/
/** A fence opens with ``` or ~~~ (3 or more) and an info string; the first word is the language. */
export function fenceOpen(line: string): FenceOpen | undefined {
  const match = FENCE_OPEN.exec(line)
  if (!match) return undefined
  const [, marker, info] = match
  // CommonMark: a backtick fence's info string cannot hold a backtick (that is inline code).
  if (marker[0] === '`' && info.includes('`')) return undefined
  return {language: (info.trim().split(/\s+/)[0] ?? '').toLowerCase(), marker}
}

/** A closing fence: the same character, at least as long, nothing but spaces after it. */
export function fenceCloses(line: string, open: FenceOpen): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line)
  return match !== null && match[1][0] === open.marker[0] && match[1].length >= open.marker.length
}

const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/
const LIST_ITEM = /^([ \t]*)([-*+]|\d{1,9}[.)])[ \t]+(.*)$/
const QUOTE = /^ {0,3}>[ \t]?(.*)$/
export const RULE_WIDTH = 40

/** The spans of one line outside fences and tables (without its `\n`). */
export function lineSpans(line: string, base: SpanStyle = {}): StyledSpan[] {
  if (RULE.test(line)) return [{style: {...base, dim: true}, text: '─'.repeat(RULE_WIDTH)}]
  const heading = HEADING.exec(line)
  if (heading) return inlineSpans(heading[2] ?? '', {...base, bold: true, heading: heading[1].length})
  const quote = QUOTE.exec(line)
  if (quote)
    return [{style: {...base, dim: true, quote: true}, text: '│ '}, ...lineSpans(quote[1], {...base, quote: true})]
  const item = LIST_ITEM.exec(line)
  if (item) {
    // Nesting by indent: two columns (a tab counts as four) per level, as models write it.
    const indent = item[1].replaceAll('\t', '    ').length
    const depth = Math.floor(indent / 2)
    const numbered = /\d/.test(item[2][0])
    const bullet = numbered ? `${item[2]} ` : depth % 2 === 0 ? '• ' : '◦ '
    return [
      {text: '  '.repeat(depth), ...(Object.keys(base).length ? {style: {...base}} : {})},
      {style: {...base, dim: true}, text: bullet},
      ...inlineSpans(item[3], base),
    ].filter((s) => s.text)
  }

  return inlineSpans(line, base)
}
