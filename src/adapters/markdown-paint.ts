import type {ChalkInstance} from 'chalk'

import type {StyledSpan} from '../core/markdown/index.js'

/**
 * Rendered markdown spans to a terminal string. `style` comes from `makeStyle`, so NO_COLOR
 * and a non-terminal give plain text; links are then written `text (url)`, since an OSC-8
 * hyperlink is only worth sending where escape sequences are (colour on).
 */
export function paintSpans(spans: readonly StyledSpan[], style: ChalkInstance): string {
  const colour = style.level > 0
  let out = ''
  for (const span of spans) {
    const s = span.style
    if (!s) {
      out += span.text
      continue
    }

    let text = span.text
    let paint = style
    if (s.bold) paint = paint.bold
    if (s.italic) paint = paint.italic
    if (s.strike) paint = paint.strikethrough
    if (s.dim) paint = paint.dim
    if (s.heading !== undefined) paint = s.heading <= 2 ? paint.underline : paint
    if (s.color && s.color in style) paint = (paint as unknown as Record<string, ChalkInstance>)[s.color]
    else if (s.code && !s.fence) paint = paint.cyan
    if (s.quote && !s.dim) paint = paint.italic
    if (s.link) {
      text = colour
        ? `\u001B]8;;${s.link}\u001B\\${paint.blue.underline(text)}\u001B]8;;\u001B\\`
        : text === s.link
          ? text
          : `${text} (${s.link})`
      out += colour ? text : paint(text)
      continue
    }

    out += paint(text)
  }

  return out
}
