/**
 * The body of a bash `$'...'` string as bash reads it, so `$'\x72\x6d'` is the word `rm` to the
 * rules as it is to the shell. Escapes bash does not know keep their backslash, as in bash. A
 * NUL (`\0`, `\x00`, `\c@`, ...) ends the string, as it ends a C string: `$'\0'rm` is `rm`.
 */
export function decodeAnsiC(body: string): string {
  let out = ''
  for (let i = 0; i < body.length; i++) {
    let char = body[i]
    if (char === '\\' && i + 1 < body.length) {
      const escape = body[++i]
      const simple = SIMPLE_ESCAPES[escape]
      if (simple !== undefined) {
        char = simple
      } else if (escape === 'c' && i + 1 < body.length) {
        char = String.fromCodePoint(body.codePointAt(++i)! & 0x1f)
      } else {
        const numeric = NUMERIC_ESCAPES.find(([prefix]) => prefix.test(escape))
        const digits = numeric && numeric[1].exec(body.slice(numeric[3] ? i + 1 : i))
        if (numeric && digits) {
          char = String.fromCodePoint(Math.min(Number.parseInt(digits[0], numeric[2]), 0x10_ffff))
          i += digits[0].length - (numeric[3] ? 0 : 1)
        } else {
          char = '\\' + escape
        }
      }
    }

    if (char === '\0') break
    out += char
  }

  return out
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '"': '"',
  "'": "'",
  '?': '?',
  '\\': '\\',
  E: '\u001B',
  a: '\u0007',
  b: '\b',
  e: '\u001B',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
}

/** [escape letter, its digits, radix, whether the digits follow the letter (else the letter is the first digit)]. */
const NUMERIC_ESCAPES: ReadonlyArray<[RegExp, RegExp, number, boolean]> = [
  [/[0-7]/, /^[0-7]{1,3}/, 8, false],
  [/x/, /^[\dA-Fa-f]{1,2}/, 16, true],
  [/u/, /^[\dA-Fa-f]{1,4}/, 16, true],
  [/U/, /^[\dA-Fa-f]{1,8}/, 16, true],
]
