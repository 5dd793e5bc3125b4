// Vim key notation for a sequence of keys: `ihello<Esc>0dw`. A `<...>` group naming a key is one
// key; `<lt>` is a literal `<`, and a `<` that starts no known name is itself.

const NAMES = new Set([
  'Esc',
  'CR',
  'S-CR',
  'BS',
  'Del',
  'Tab',
  'Left',
  'Right',
  'Up',
  'Down',
  'Home',
  'End',
  'C-c',
  'C-j',
  'C-r',
  'C-u',
  'C-w',
])

export function parseKeys(notation: string): string[] {
  const keys: string[] = []
  let i = 0
  while (i < notation.length) {
    if (notation[i] === '<') {
      const close = notation.indexOf('>', i)
      const name = close === -1 ? '' : notation.slice(i + 1, close)
      if (name === 'lt') {
        keys.push('<')
        i = close + 1
        continue
      }

      if (NAMES.has(name)) {
        keys.push(name === 'Tab' ? '\t' : `<${name}>`)
        i = close + 1
        continue
      }
    }

    const ch = String.fromCodePoint(notation.codePointAt(i)!)
    keys.push(ch)
    i += ch.length
  }

  return keys
}
