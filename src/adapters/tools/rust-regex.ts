/**
 * The model's JavaScript regex as ripgrep's (Rust) regex with the same matches on a line, or
 * undefined when that cannot be promised; fs_grep then matches it itself. Only a subset is
 * translated, and what the two engines read differently is spelled out: `\d`, `\w`, `\s` and
 * `.` become the classes JavaScript means (Rust's are Unicode-wide), `\b` the ASCII boundary,
 * every punctuation literal an `\x{..}` escape (Rust has class operators such as `&&` and `--`,
 * and refuses escapes JavaScript allows). Lookaround, backreferences, named groups, `\p`, `\u`,
 * `\x`, `\c` and legacy (non-Unicode) patterns are left to the JavaScript engine.
 */

const CLASS_ESCAPES: Record<string, string> = {
  d: '0-9',
  s: '\\t\\n\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}',
  w: 'A-Za-z0-9_',
}
const CONTROL_ESCAPES: Record<string, string> = {f: '\\f', n: '\\n', r: '\\r', t: '\\t', v: '\\x0B'}
/** JavaScript's `.` without the `s` flag. */
const ANY = '[^\\n\\r\\x{2028}\\x{2029}]'

/** `flags` as fs_grep chose them: `u` when the pattern is valid in Unicode mode, `i` for case_insensitive. */
export function toRustRegex(pattern: string, flags: string): string | undefined {
  if (!flags.includes('u')) return undefined
  let out = flags.includes('i') ? '(?i)' : ''
  let i = 0
  while (i < pattern.length) {
    const c = pattern[i]
    if (c === '\\') {
      const translated = escape(pattern, i + 1, false)
      if (translated === undefined) return undefined
      out += translated
      i += 2
    } else if (c === '[') {
      const end = classEnd(pattern, i)
      const translated = end === undefined ? undefined : charClass(pattern.slice(i + 1, end))
      if (translated === undefined) return undefined
      out += translated
      i = end! + 1
    } else if (c === '(') {
      if (pattern[i + 1] === '?') {
        if (pattern[i + 2] !== ':') return undefined
        out += '(?:'
        i += 3
      } else {
        out += '('
        i++
      }
    } else if (c === '{') {
      // In Unicode mode a `{` is always a quantifier (a lone one does not compile).
      const quantifier = /^\{\d+(?:,\d*)?\}/.exec(pattern.slice(i))
      if (!quantifier) return undefined
      out += quantifier[0]
      i += quantifier[0].length
    } else {
      out += c === '.' ? ANY : '|)*+?^$'.includes(c) ? c : literal(c)
      i++
    }
  }

  return out
}

function literal(c: string): string {
  return /[\w ]/.test(c) || c.charCodeAt(0) > 127 ? c : `\\x{${c.charCodeAt(0).toString(16)}}`
}

/** The escape at `pattern[at]` (after its backslash). */
function escape(pattern: string, at: number, inClass: boolean): string | undefined {
  const c = pattern[at]
  if (c in CLASS_ESCAPES) return inClass ? CLASS_ESCAPES[c] : `[${CLASS_ESCAPES[c]}]`
  const lower = c.toLowerCase()
  if (lower in CLASS_ESCAPES) return inClass ? undefined : `[^${CLASS_ESCAPES[lower]}]`
  if (c in CONTROL_ESCAPES) return CONTROL_ESCAPES[c]
  if (c === 'b') return inClass ? '\\x{8}' : '(?-u:\\b)'
  if (c === 'B') return inClass ? undefined : '(?-u:\\B)'
  if (c === '0' && !/\d/.test(pattern[at + 1] ?? '')) return '\\x{0}'
  // Unicode mode allows escaping only syntax characters (and `-` in a class).
  if (/[$()*+./?[\\\]^{|}-]/.test(c)) return literal(c)
  return undefined
}

/** The index of the `]` closing the class opened at `start`; in Unicode mode a `[` inside is literal. */
function classEnd(pattern: string, start: number): number | undefined {
  for (let i = start + 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++
    else if (pattern[i] === ']') return i
  }

  return undefined
}

/** A class's contents (between `[` and `]`); ranges only between two single characters. */
function charClass(body: string): string | undefined {
  const negated = body.startsWith('^')
  const items = negated ? body.slice(1) : body
  if (items === '') return undefined
  const atoms: Array<{text: string; single: boolean}> = []
  for (let i = 0; i < items.length; i++) {
    if (items[i] === '\\') {
      const text = escape(items, i + 1, true)
      if (text === undefined) return undefined
      atoms.push({single: !(items[i + 1] in CLASS_ESCAPES), text})
      i++
    } else {
      atoms.push({single: true, text: items[i] === '-' ? '-' : literal(items[i])})
    }
  }

  let out = ''
  for (let k = 0; k < atoms.length; k++) {
    const isRange = atoms[k].text === '-' && k > 0 && k < atoms.length - 1
    if (!isRange) {
      out += atoms[k].text === '-' ? '\\x{2d}' : atoms[k].text
      continue
    }

    // `a-z`: both ends single characters, and not straight after another range (`a-c-e`).
    if (!atoms[k - 1].single || !atoms[k + 1].single || (k >= 3 && atoms[k - 2].text === '-')) return undefined
    out += '-'
  }

  return `[${negated ? '^' : ''}${out}]`
}
