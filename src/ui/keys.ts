// A terminal's keypresses (node:readline's decoding) as the vim key notation the input widgets
// take (src/core/input/key-notation.ts): `<CR>`, `<Esc>`, `<C-c>`, a printable character as itself.

/** What node:readline's `keypress` event gives. */
export interface Keypress {
  name?: string
  sequence?: string
  ctrl?: boolean
  meta?: boolean
  shift?: boolean
}

const NAMED: Record<string, string> = {
  backspace: '<BS>',
  delete: '<Del>',
  down: '<Down>',
  end: '<End>',
  escape: '<Esc>',
  home: '<Home>',
  left: '<Left>',
  right: '<Right>',
  tab: '\t',
  up: '<Up>',
}

/**
 * The keys in vim notation; none for one the widgets do not use (F-keys). Esc and a key typed
 * right after it arrive together and read as Alt+key: for the widgets they are the two keys
 * (vim's `<Esc>0`), as a terminal vim sees them.
 */
export function keyNotations(text: string | undefined, key: Keypress | undefined, options: {vim: boolean}): string[] {
  const enter = key?.name === 'return' || key?.name === 'enter'
  // In vim mode Esc then Enter (leave Insert mode, submit) comes as Alt+Enter just as fast.
  if (key?.meta && enter && options.vim) return ['<Esc>', '<CR>']
  // Esc Esc typed fast comes as one Alt+Esc: it is the two (`/rewind` opens on them).
  if (key?.meta && key.name === 'escape') return ['<Esc>', '<Esc>']
  if (key?.meta && !enter && key.name !== 'escape') {
    const rest = keyNotation(key.sequence?.startsWith('\u001B') ? key.sequence.slice(1) : text, {...key, meta: false})
    return rest === undefined ? ['<Esc>'] : ['<Esc>', rest]
  }

  const one = keyNotation(text, key)
  return one === undefined ? [] : [one]
}

function keyNotation(text: string | undefined, key: Keypress | undefined): string | undefined {
  const name = key?.name
  if (name === 'return' || name === 'enter') {
    // Terminals send Shift+Enter as plain Enter; Alt+Enter (ESC CR) is the newline most of them can send.
    if (key?.meta || key?.shift) return '<S-CR>'
    // In raw mode Enter sends CR; a bare LF, which readline names `enter`, is Ctrl-J (or a pasted line break).
    return name === 'enter' ? '<C-j>' : '<CR>'
  }

  if (name === 'tab' && key?.shift) return '<S-Tab>'
  if (key?.ctrl && name && /^[a-z]$/.test(name)) return `<C-${name}>`
  if (name && NAMED[name] && !key?.ctrl) return NAMED[name]
  if (text === undefined || text === '') return undefined
  // Control characters readline could not name (and escape sequences it did not know) are dropped.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000B-\u001F\u007F]/.test(text)) return undefined
  return text
}
