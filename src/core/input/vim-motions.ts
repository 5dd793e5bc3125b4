// Vim motions and text objects over a buffer: where a motion lands and how an operator reads it.
import {
  charClass,
  charsForward,
  column,
  firstNonBlank,
  lineAt,
  lineCount,
  lineEnd,
  lineIndex,
  lineStart,
  nextChar,
  prevChar,
} from './text.js'

/**
 * Where a motion lands. `exclusive` motions (h l w b 0 ^) leave the landing character out of an
 * operator's range, `inclusive` ones (e $ f t) take it, `linewise` ones (j k gg G) take whole lines.
 */
export interface MotionTarget {
  pos: number
  kind: 'exclusive' | 'inclusive' | 'linewise'
}

export interface TextRange {
  start: number
  /** Exclusive. */
  end: number
}

export const MOTION_KEYS = new Set([
  'h',
  'l',
  'j',
  'k',
  'w',
  'b',
  'e',
  'W',
  'B',
  'E',
  '0',
  '$',
  '^',
  'G',
  'gg',
  'f',
  't',
  'F',
  'T',
])
/** Motions that take the next key as their argument. */
export const CHAR_MOTIONS = new Set(['f', 't', 'F', 'T'])

/**
 * `count` is the count typed (undefined when none: `G` goes to the last line, `5G` to line 5).
 * `want` is the column `j` and `k` aim for (vim's curswant: kept through shorter lines,
 * Infinity after `$`); by default the cursor's own.
 * Returns undefined when the motion cannot move (an `f` that finds nothing), which cancels an operator.
 */
export function motionTarget(
  text: string,
  pos: number,
  motion: string,
  count: number | undefined,
  arg?: string,
  want?: number,
): MotionTarget | undefined {
  const n = count ?? 1
  switch (motion) {
    case 'h': {
      const start = lineStart(text, pos)
      if (pos === start) return undefined
      let p = pos
      for (let i = 0; i < n && p > start; i++) p = prevChar(text, p)
      return {kind: 'exclusive', pos: Math.max(start, p)}
    }

    case 'l': {
      const end = lineEnd(text, pos)
      return pos >= end ? undefined : {kind: 'exclusive', pos: charsForward(text, pos, n, end)}
    }

    case 'j':
    case 'k': {
      const line = lineIndex(text, pos)
      const last = lineCount(text) - 1
      const target = motion === 'j' ? Math.min(last, line + n) : Math.max(0, line - n)
      if (target === line) return undefined
      const start = lineAt(text, target)
      const end = lineEnd(text, start)
      const col = want ?? column(text, pos)
      return {
        kind: 'linewise',
        pos: Math.min(charsForward(text, start, Math.min(col, end - start), end), Math.max(start, prevChar(text, end))),
      }
    }

    case 'w':
    case 'W':
    case 'e':
    case 'E':
    case 'b':
    case 'B': {
      if ((motion === 'b' || motion === 'B') && pos === 0) return undefined
      if (
        motion !== 'b' &&
        motion !== 'B' &&
        pos >= text.length - 1 &&
        ((motion !== 'w' && motion !== 'W') || pos >= text.length)
      )
        return undefined
      const big = motion === motion.toUpperCase()
      const step =
        motion === 'w' || motion === 'W' ? wordForward : motion === 'b' || motion === 'B' ? wordBackward : wordEnd
      let p = pos
      for (let i = 0; i < n; i++) p = step(text, p, big)
      return {kind: motion === 'e' || motion === 'E' ? 'inclusive' : 'exclusive', pos: p}
    }

    case '0':
      return {kind: 'exclusive', pos: lineStart(text, pos)}
    case '^':
      return {kind: 'exclusive', pos: firstNonBlank(text, pos)}
    case '$': {
      const start = lineAt(text, lineIndex(text, pos) + n - 1)
      return {kind: 'inclusive', pos: Math.max(start, prevChar(text, lineEnd(text, start)))}
    }

    case 'gg':
    case 'G': {
      const line =
        count === undefined ? (motion === 'gg' ? 0 : lineCount(text) - 1) : Math.min(count, lineCount(text)) - 1
      return {kind: 'linewise', pos: firstNonBlank(text, lineAt(text, line))}
    }

    case 'f':
    case 't':
    case 'F':
    case 'T':
      return arg === undefined ? undefined : findInLine(text, pos, motion, arg, n)
    default:
      return undefined
  }
}

function findInLine(text: string, pos: number, motion: string, ch: string, n: number): MotionTarget | undefined {
  const forward = motion === 'f' || motion === 't'
  const limit = forward ? lineEnd(text, pos) : lineStart(text, pos)
  let p = pos
  for (let found = 0; found < n; found++) {
    p = forward ? text.indexOf(ch, nextChar(text, p)) : p === 0 ? -1 : text.lastIndexOf(ch, p - 1)
    if (p === -1 || (forward ? p >= limit : p < limit)) return undefined
  }

  // A match right next to the cursor is found: `t` then stays put (and `dt` deletes one character).
  if (motion === 't') return {kind: 'inclusive', pos: prevChar(text, p)}
  if (motion === 'T') return {kind: 'exclusive', pos: nextChar(text, p)}
  return {kind: forward ? 'inclusive' : 'exclusive', pos: p}
}

function isEmptyLine(text: string, pos: number): boolean {
  return text[pos] === '\n' && (pos === 0 || text[pos - 1] === '\n')
}

function wordForward(text: string, pos: number, big: boolean): number {
  let i = pos
  const cls = charClass(text, i, big)
  if (cls !== 0) while (i < text.length && charClass(text, i, big) === cls) i++
  else if (isEmptyLine(text, i)) i++
  // An empty line counts as a word.
  while (i < text.length && charClass(text, i, big) === 0) {
    if (text[i] === '\n' && text[i + 1] === '\n') return i + 1
    i++
  }

  return i
}

function wordEnd(text: string, pos: number, big: boolean): number {
  let i = nextChar(text, pos)
  while (i < text.length && charClass(text, i, big) === 0) i++
  if (i >= text.length) return text.length - 1
  const cls = charClass(text, i, big)
  while (i + 1 < text.length && charClass(text, i + 1, big) === cls) i++
  return i
}

function wordBackward(text: string, pos: number, big: boolean): number {
  let i = pos - 1
  while (i > 0 && charClass(text, i, big) === 0) {
    if (isEmptyLine(text, i)) return i
    i--
  }

  const cls = charClass(text, i, big)
  while (i > 0 && charClass(text, i - 1, big) === cls) i--
  return i
}

const PAIRS: Record<string, [string, string]> = {
  '(': ['(', ')'],
  ')': ['(', ')'],
  b: ['(', ')'],
  '[': ['[', ']'],
  ']': ['[', ']'],
  '{': ['{', '}'],
  '}': ['{', '}'],
  B: ['{', '}'],
  '<': ['<', '>'],
  '>': ['<', '>'],
}

export const TEXT_OBJECT_KEYS = new Set(['w', 'W', '"', "'", '`', ...Object.keys(PAIRS)])

/** `iw`, `a"`, `i(`...: `around` is the `a` form. Undefined when there is no such object at the cursor. */
export function textObject(text: string, pos: number, around: boolean, key: string): TextRange | undefined {
  if (key === 'w' || key === 'W') return wordObject(text, pos, around, key === 'W')
  if (key === '"' || key === "'" || key === '`') return quoteObject(text, pos, around, key)
  const pair = PAIRS[key]
  return pair ? bracketObject(text, pos, around, pair[0], pair[1]) : undefined
}

function wordObject(text: string, pos: number, around: boolean, big: boolean): TextRange | undefined {
  const start0 = lineStart(text, pos)
  const end0 = lineEnd(text, pos)
  if (start0 === end0) return undefined
  const cls = charClass(text, pos, big)
  let start = pos
  let end = pos + 1
  while (start > start0 && charClass(text, start - 1, big) === cls) start--
  while (end < end0 && charClass(text, end, big) === cls) end++
  if (!around) return {end, start}
  if (cls === 0) {
    // On blanks, `aw` is the blanks and the word after them.
    const next = end < end0 ? charClass(text, end, big) : 0
    while (next !== 0 && end < end0 && charClass(text, end, big) === next) end++
    return {end, start}
  }

  const blanksEnd = skipBlanks(text, end, end0)
  if (blanksEnd > end) return {end: blanksEnd, start}
  let s = start
  while (s > start0 && charClass(text, s - 1, big) === 0) s--
  return {end, start: s}
}

function skipBlanks(text: string, from: number, limit: number): number {
  let i = from
  while (i < limit && (text[i] === ' ' || text[i] === '\t')) i++
  return i
}

function quoteObject(text: string, pos: number, around: boolean, quote: string): TextRange | undefined {
  const start0 = lineStart(text, pos)
  const end0 = lineEnd(text, pos)
  const quotes: number[] = []
  for (let i = start0; i < end0; i++) if (text[i] === quote && text[i - 1] !== '\\') quotes.push(i)
  for (let k = 0; k + 1 < quotes.length; k += 2) {
    const [open, close] = [quotes[k], quotes[k + 1]]
    // The pair around the cursor, or else the first one after it (as vim does on `ci"`).
    if (close < pos) continue
    if (!around) return {end: close, start: open + 1}
    const after = skipBlanks(text, close + 1, end0)
    if (after > close + 1) return {end: after, start: open}
    let s = open
    while (s > start0 && (text[s - 1] === ' ' || text[s - 1] === '\t')) s--
    return {end: close + 1, start: s}
  }

  return undefined
}

function bracketObject(text: string, pos: number, around: boolean, open: string, close: string): TextRange | undefined {
  let depth = 0
  let from = -1
  for (let i = text[pos] === close ? pos - 1 : pos; i >= 0; i--) {
    if (text[i] === close) depth++
    else if (text[i] === open) {
      if (depth === 0) {
        from = i
        break
      }

      depth--
    }
  }

  if (from === -1) return undefined
  depth = 0
  for (let i = from + 1; i < text.length; i++) {
    if (text[i] === open) depth++
    else if (text[i] === close) {
      if (depth === 0) return around ? {end: i + 1, start: from} : {end: i, start: from + 1}
      depth--
    }
  }

  return undefined
}
