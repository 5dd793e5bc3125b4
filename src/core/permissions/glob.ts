import {hasWildcard} from './word-shape.js'

/**
 * The glob of permission patterns: `*` matches any run of characters (none, spaces and `/`
 * included), `?` exactly one character (code point); every other character stands for itself.
 * No character classes or escapes: a pattern reads the same in every implementation.
 *
 * Matched with the greedy two-pointer walk rather than a regular expression: the text is
 * written by the model (a command can be megabytes), and `a*a*a*b` as a backtracking regular
 * expression is exponential in the worst case; this is at most pattern length x text length.
 */
export function globMatches(glob: string, text: string): boolean {
  const pattern = [...glob]
  const chars = [...text]
  let p = 0
  let t = 0
  let star = -1
  let resume = 0
  while (t < chars.length) {
    if (pattern[p] === '*') {
      star = p++
      resume = t
    } else if (p < pattern.length && (pattern[p] === '?' || pattern[p] === chars[t])) {
      p++
      t++
    } else if (star === -1) {
      return false
    } else {
      p = star + 1
      t = ++resume
    }
  }

  while (pattern[p] === '*') p++
  return p === pattern.length
}

/**
 * A shape is text the shell has not expanded yet, written as a glob with escapes: `*` any
 * run, `?` one character, `\x` the character x (word-shape.ts makes them). Deny rules ask two
 * questions of it, both answered in pattern length x shape length steps:
 * - does the glob cover it, i.e. match whatever the shape turns into (certainly denied)?
 * - could the glob match something the shape turns into (possibly denied)?
 * Covering is checked by aligning each wildcard of the shape with a `*` (or a `?` with a `?`)
 * of the glob: sound, and exact for the shapes commands have in practice.
 */
export function globCoversShape(glob: string, shape: string): boolean {
  return walk(glob, shape, false)
}

/** See {@link globCoversShape}. */
export function globOverlapsShape(glob: string, shape: string): boolean {
  return walk(glob, shape, true)
}

const ANY = -1
const ONE = -2

/**
 * Reachability over (glob position, shape position), one row per glob position: every step
 * moves right, down or both, so two rows of the table are enough, and a row starts where the
 * first reachable cell of the one above it is.
 */
function walk(glob: string, shape: string, overlap: boolean): boolean {
  // Most shapes are plain text, for which the two-pointer walk is the fast answer.
  if (!hasWildcard(shape)) return globMatches(glob, shape.replaceAll(/\\([\s\S])/g, '$1'))
  const g = [...glob].map((char) => (char === '*' ? ANY : char === '?' ? ONE : char.codePointAt(0)!))
  const s = shapeTokens(shape)
  const width = s.length + 1
  let row = new Uint8Array(width)
  row[0] = 1
  let from = 0
  for (let i = 0; ; i++) {
    // Along the row: a `*` of the glob takes the next shape token; a `*` of the shape may be empty.
    for (let j = from; j < s.length; j++) {
      if (row[j] && (g[i] === ANY || (overlap && s[j] === ANY))) row[j + 1] = 1
    }

    if (i === g.length) return row[s.length] === 1
    const next = new Uint8Array(width)
    let first = width
    for (let j = from; j < width; j++) {
      if (!row[j]) continue
      const to = step(g[i], s[j], overlap)
      if (to === undefined) continue
      next[j + to] = 1
      first = Math.min(first, j + to)
    }

    if (first === width) return false
    row = next
    from = first
  }
}

/** Where glob token `g` against shape token `s` (undefined past the end) leads: same column, next, or nowhere. */
function step(g: number, s: number | undefined, overlap: boolean): 0 | 1 | undefined {
  if (g === ANY) return 0
  if (s === undefined) return undefined
  if (s === ANY) return overlap ? 0 : undefined
  return g === ONE || s === g || (overlap && s === ONE) ? 1 : undefined
}

function shapeTokens(shape: string): number[] {
  const tokens: number[] = []
  const chars = [...shape]
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]
    if (char === '\\' && i + 1 < chars.length) tokens.push(chars[++i].codePointAt(0)!)
    else tokens.push(char === '*' ? ANY : char === '?' ? ONE : char.codePointAt(0)!)
  }

  return tokens
}
