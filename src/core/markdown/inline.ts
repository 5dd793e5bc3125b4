import type {SpanStyle, StyledSpan} from './types.js'

/**
 * Inline markup of one complete line: `code`, **bold**, *italic* / _italic_, ~~strike~~,
 * [text](url) and backslash escapes. A hand-written scanner rather than marked's Lexer, so the
 * cost is predictable per line and a delimiter without a closer stays literal text (which is
 * what a reader of a half-finished answer expects to see).
 */
export function inlineSpans(text: string, base: SpanStyle = {}): StyledSpan[] {
  const out: StyledSpan[] = []
  scan(text, 0, text.length, base, out)
  return mergeSpans(out)
}

const PUNCTUATION = /[!-/:-@[-`{-~]/
const isSpace = (ch: string | undefined) => ch === undefined || /\s/.test(ch)
const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}]/u.test(ch)

function scan(text: string, start: number, end: number, style: SpanStyle, out: StyledSpan[]): void {
  let plain = ''
  const emit = (piece: string, pieceStyle: SpanStyle) => {
    if (plain) out.push(span(plain, style))
    plain = ''
    out.push(span(piece, pieceStyle))
  }

  // A delimiter that found no closer from position p finds none from any later position
  // either: remembering that keeps a line full of stray `*` linear instead of quadratic.
  const noCloser = new Set<string>()
  let i = start
  while (i < end) {
    const ch = text[i]
    if (ch === '\\' && i + 1 < end && PUNCTUATION.test(text[i + 1])) {
      plain += text[i + 1]
      i += 2
      continue
    }

    if (ch === '`') {
      let run = 1
      while (i + run < end && text[i + run] === '`') run++
      const fence = '`'.repeat(run)
      const close = noCloser.has(fence) ? -1 : findRun(text, fence, i + run, end)
      if (close === -1) {
        noCloser.add(fence)
        plain += fence
        i += run
        continue
      }

      let code = text.slice(i + run, close)
      if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim()) code = code.slice(1, -1)
      emit(code, {...style, code: true})
      i = close + run
      continue
    }

    if (ch === '[') {
      const link = noCloser.has('[') ? undefined : findLink(text, i, end)
      if (link) {
        if (plain) out.push(span(plain, style))
        plain = ''
        scan(text, i + 1, link.textEnd, {...style, link: link.url}, out)
        i = link.end
        continue
      }

      noCloser.add('[')
    }

    const delimiter = delimiterAt(text, i, end)
    if (delimiter && !noCloser.has(delimiter.marker)) {
      const close = findCloser(text, delimiter.marker, i + delimiter.marker.length, end)
      if (close === -1) {
        noCloser.add(delimiter.marker)
      } else {
        if (plain) out.push(span(plain, style))
        plain = ''
        scan(text, i + delimiter.marker.length, close, {...style, ...delimiter.adds}, out)
        i = close + delimiter.marker.length
        continue
      }
    }

    if (delimiter) {
      plain += delimiter.marker
      i += delimiter.marker.length
      continue
    }

    plain += ch
    i++
  }

  if (plain) out.push(span(plain, style))
}

interface Delimiter {
  marker: string
  adds: SpanStyle
}

/** An opening emphasis delimiter at `i`: followed by non-space, and `_` not inside a word. */
function delimiterAt(text: string, i: number, end: number): Delimiter | undefined {
  const ch = text[i]
  if (ch !== '*' && ch !== '_' && ch !== '~') return undefined
  const double = text[i + 1] === ch
  if (ch === '~' && !double) return undefined
  const marker = double ? ch + ch : ch
  const after = i + marker.length < end ? text[i + marker.length] : undefined
  if (isSpace(after) || after === ch) return undefined
  if (ch === '_' && isWordChar(text[i - 1])) return undefined
  const adds: SpanStyle = ch === '~' ? {strike: true} : double ? {bold: true} : {italic: true}
  return {adds, marker}
}

/** The closing delimiter: preceded by non-space, not part of a longer run, `_` not inside a word. */
function findCloser(text: string, marker: string, from: number, end: number): number {
  let at = text.indexOf(marker, from)
  while (at !== -1 && at + marker.length <= end) {
    const before = text[at - 1]
    const after = at + marker.length < end ? text[at + marker.length] : undefined
    const ok =
      at > from &&
      !isSpace(before) &&
      after !== marker[0] &&
      before !== marker[0] &&
      !(marker[0] === '_' && isWordChar(after))
    if (ok) return at
    at = text.indexOf(marker, at + 1)
  }

  return -1
}

function findRun(text: string, fence: string, from: number, end: number): number {
  let at = text.indexOf(fence, from)
  while (at !== -1 && at + fence.length <= end) {
    // Exactly `fence`: a longer run of backticks does not close a shorter one.
    if (text[at - 1] !== '`' && text[at + fence.length] !== '`') return at
    at = text.indexOf(fence, at + fence.length)
  }

  return -1
}

function findLink(text: string, open: number, end: number): undefined | {textEnd: number; url: string; end: number} {
  const textEnd = text.indexOf('](', open + 1)
  if (textEnd === -1 || textEnd >= end || textEnd === open + 1) return undefined
  const urlEnd = text.indexOf(')', textEnd + 2)
  if (urlEnd === -1 || urlEnd >= end) return undefined
  const url =
    text
      .slice(textEnd + 2, urlEnd)
      .trim()
      .split(/\s+/)[0] ?? ''
  if (!url) return undefined
  return {end: urlEnd + 1, textEnd, url}
}

function span(text: string, style: SpanStyle): StyledSpan {
  return Object.keys(style).length === 0 ? {text} : {style: {...style}, text}
}

/** Adjacent spans of the same style become one, so equal input always gives the same spans. */
export function mergeSpans(spans: StyledSpan[]): StyledSpan[] {
  const out: StyledSpan[] = []
  for (const s of spans) {
    if (!s.text) continue
    const last = out.at(-1)
    if (last && last.text !== '\n' && s.text !== '\n' && sameStyle(last.style, s.style)) last.text += s.text
    else out.push({...s})
  }

  return out
}

function sameStyle(a: SpanStyle | undefined, b: SpanStyle | undefined): boolean {
  const ka = Object.keys(a ?? {})
  const kb = Object.keys(b ?? {})
  if (ka.length !== kb.length) return false
  return ka.every((k) => (a as Record<string, unknown>)[k] === (b as Record<string, unknown>)?.[k])
}
