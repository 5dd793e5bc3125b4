// Geometry of a multi-line edit buffer addressed by UTF-16 offsets: what the vim motions and
// operators measure with. Lines end at "\n"; the last line has no terminator. A character is a
// code point: an offset never rests between the two halves of a surrogate pair.

export function lineStart(text: string, pos: number): number {
  // lastIndexOf reads a negative start as 0: a "\n" at offset 0 would count as before it.
  return pos <= 0 ? 0 : text.lastIndexOf('\n', pos - 1) + 1
}

/** The offset of the line's "\n", or the text's length on the last line. */
export function lineEnd(text: string, pos: number): number {
  const nl = text.indexOf('\n', pos)
  return nl === -1 ? text.length : nl
}

export function lineIndex(text: string, pos: number): number {
  let n = 0
  for (let i = text.indexOf('\n'); i !== -1 && i < pos; i = text.indexOf('\n', i + 1)) n++
  return n
}

export function lineCount(text: string): number {
  return lineIndex(text, text.length) + 1
}

/** The start of line `index` (0-based), clamped to the last line. */
export function lineAt(text: string, index: number): number {
  let pos = 0
  for (let n = 0; n < index; n++) {
    const nl = text.indexOf('\n', pos)
    if (nl === -1) break
    pos = nl + 1
  }

  return pos
}

function isLowSurrogate(text: string, pos: number): boolean {
  const code = text.charCodeAt(pos)
  const before = text.charCodeAt(pos - 1)
  return code >= 0xdc_00 && code <= 0xdf_ff && before >= 0xd8_00 && before <= 0xdb_ff
}

/** The offset of the character `pos` is in (a low surrogate belongs to the pair it ends). */
export function charStart(text: string, pos: number): number {
  return pos > 0 && isLowSurrogate(text, pos) ? pos - 1 : pos
}

/** The offset after the character at `pos`. */
export function nextChar(text: string, pos: number): number {
  return Math.min(text.length, pos + (isLowSurrogate(text, pos + 1) ? 2 : 1))
}

/** The offset of the character before `pos`. */
export function prevChar(text: string, pos: number): number {
  return Math.max(0, charStart(text, pos - 1))
}

/** `n` characters on from `pos`, not past `limit`. */
export function charsForward(text: string, pos: number, n: number, limit = text.length): number {
  let p = pos
  for (let i = 0; i < n && p < limit; i++) p = nextChar(text, p)
  return Math.min(p, limit)
}

/** The character column of `pos` in its line (0-based), what `j` and `k` keep. */
export function column(text: string, pos: number): number {
  return [...text.slice(lineStart(text, pos), pos)].length
}

export function firstNonBlank(text: string, pos: number): number {
  const end = lineEnd(text, pos)
  let i = lineStart(text, pos)
  while (i < end && (text[i] === ' ' || text[i] === '\t')) i++
  return i
}

/**
 * Where a Normal-mode cursor may rest: on a character of its line, never on the "\n" (an empty
 * line's only position is its start).
 */
export function clampNormal(text: string, pos: number): number {
  const p = Math.max(0, Math.min(pos, text.length))
  const start = lineStart(text, p)
  const end = lineEnd(text, p)
  return Math.max(start, charStart(text, Math.min(p, end - 1)))
}

/**
 * Vim's character classes for word motions, of the character at `pos` (either half of a
 * surrogate pair): 0 blank, 1 keyword, 2 other punctuation, 3 emoji (a word of their own, as in vim).
 */
export function charClass(text: string, pos: number, bigWord = false): 0 | 1 | 2 | 3 {
  const ch = text[pos]
  if (ch === undefined || ch === ' ' || ch === '\t' || ch === '\n') return 0
  if (bigWord) return 1
  const char = String.fromCodePoint(text.codePointAt(charStart(text, pos))!)
  if (/[\p{L}\p{N}_]/u.test(char)) return 1
  return /\p{Extended_Pictographic}/u.test(char) ? 3 : 2
}
