/**
 * A word's shape: what the shell may still turn it into, as a glob with escapes (glob.ts):
 * quoted and escaped text stands for itself, and what is only known when the command runs
 * becomes a wildcard, so a deny rule can tell a command it certainly matches (`\rm -rf /`) from
 * one it may match (`$X -rf /`, `/bin/r? -rf /`, `{rm,-rf,/}`).
 *
 * While the scanner reads a word it builds a raw shape: quoted characters escaped (with the
 * brace, bracket and tilde characters too, which only expand unquoted), expansions already
 * `*`, unquoted text as it is. {@link finishShape} then reads the unquoted brace expansions,
 * bracket expressions and a leading tilde, none of which can be told before the word ends.
 */

/** Raw-shape text that stands for itself. */
export function quotedShape(text: string): string {
  return text.replaceAll(/[\\*?[\]{}~,]/g, '\\$&')
}

/** Raw-shape text read unquoted: globs and braces keep their meaning; only `\` needs escaping. */
export function unquotedShape(text: string): string {
  return text.replaceAll('\\', '\\\\')
}

/** A finished shape of text that the shell leaves as it is. */
export function literalShape(text: string): string {
  return text.replaceAll(/[\\*?]/g, '\\$&')
}

/** Whether the shell may make something else of the word. */
export function hasWildcard(shape: string): boolean {
  for (let i = 0; i < shape.length; i++) {
    if (shape[i] === '\\') i++
    else if (shape[i] === '*' || shape[i] === '?') return true
  }

  return false
}

/** Whether anything of the word is known before it runs (a `/` alone says nothing). */
export function hasLiteral(shape: string): boolean {
  return /\\|[^*/?]/.test(shape)
}

/**
 * Bash turns `{a,b}` and `{1..3}` into several words, `[ab]` into one of its characters, and a
 * leading `~` or `~user` into a home directory; each becomes a wildcard.
 */
export function finishShape(raw: string): string {
  if (!/[,[\]{}~]/.test(raw)) return raw
  const tokens = tokenize(raw)
  const closers = bracketEnds(tokens)
  const braces = braceGroups(tokens)
  let out = ''
  let i = 0
  if (tokens[0] === '~') {
    out = '*'
    i = 1
    while (i < tokens.length && tokens[i] !== '/') i++
  }

  for (; i < tokens.length; i++) {
    const token = tokens[i]
    if (token === '*' || token === '?') {
      out += token
    } else if (token === '[' && closers[i] > i + 1) {
      out += '?'
      i = closers[i]
    } else if (token === '{' && braces.has(i)) {
      out += '*'
      i = braces.get(i)!
    } else {
      out += literalShape(token.length === 2 ? token[1] : token)
    }
  }

  return out
}

/** One character each: `\x` for an escaped one. */
function tokenize(raw: string): string[] {
  const tokens: string[] = []
  for (let i = 0; i < raw.length; i++) tokens.push(raw[i] === '\\' && i + 1 < raw.length ? raw[i] + raw[++i] : raw[i])
  return tokens
}

/** For each position, where the next unquoted `]` is (-1 if none), computed from the right. */
function bracketEnds(tokens: string[]): number[] {
  const ends: number[] = Array.from({length: tokens.length})
  let next = -1
  for (let i = tokens.length - 1; i >= 0; i--) {
    ends[i] = next
    if (tokens[i] === ']') next = i
  }

  return ends
}

/** Unquoted `{...}` groups that expand (a `,` at their own level, or `..`): opening index to closing index. */
function braceGroups(tokens: string[]): Map<number, number> {
  const groups = new Map<number, number>()
  const open: Array<{at: number; expands: boolean}> = []
  for (let i = 0; i < tokens.length; i++) {
    const top = open.at(-1)
    if (tokens[i] === '{') open.push({at: i, expands: false})
    else if (top && (tokens[i] === ',' || (tokens[i] === '.' && tokens[i + 1] === '.'))) top.expands = true
    else if (top && tokens[i] === '}') {
      open.pop()
      if (top.expands) groups.set(top.at, i)
    }
  }

  return groups
}
