/**
 * What the renderer hands to a painter. Spans carry meaning, not escape codes, so the same
 * output can go to a terminal (ANSI, OSC-8), to a chat UI, or be compared in test vectors.
 * A rendered line is its spans followed by a `{text: '\n'}` span.
 */
export interface SpanStyle {
  bold?: boolean
  italic?: boolean
  strike?: boolean
  /** Inline code, or a line of a fenced block. */
  code?: boolean
  /** Code from a fenced block (with `code`): a painter colours inline code, not a block's plain tokens. */
  fence?: boolean
  dim?: boolean
  /** The heading level (1-6) of an ATX heading's text. */
  heading?: number
  /** The link target, so the terminal layer can write an OSC-8 hyperlink. */
  link?: string
  /** A colour name (see `highlight.ts`) chosen from highlight.js's scope for the token. */
  color?: string
  /** Text inside a block quote (the `│ ` gutter too). */
  quote?: boolean
}

export interface StyledSpan {
  text: string
  style?: SpanStyle
}
