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
