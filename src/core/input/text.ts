// Geometry of a multi-line edit buffer addressed by UTF-16 offsets: what the vim motions and
// operators measure with. Lines end at "\n"; the last line has no terminator.

export function lineStart(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1
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
  return Math.max(start, Math.min(p, end - 1))
}

/** Vim's character classes for word motions: 0 blank, 1 keyword, 2 other punctuation. */
export function charClass(ch: string | undefined, bigWord = false): 0 | 1 | 2 {
  if (ch === undefined || ch === ' ' || ch === '\t' || ch === '\n') return 0
  if (bigWord) return 1
  return /[\p{L}\p{N}_]/u.test(ch) ? 1 : 2
}
