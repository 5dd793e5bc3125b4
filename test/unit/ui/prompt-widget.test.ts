import {describe, expect, it} from 'vitest'

import {PromptHistory} from '../../../src/ui/prompt-history.js'
import {type InputMode, type PromptEffect, PromptWidget} from '../../../src/ui/prompt-widget.js'
import {typedKeys} from '../../helpers/keypresses.js'

function widget(mode: InputMode = 'default', history: string[] = [], clock = () => 0) {
  return new PromptWidget(mode, PromptHistory.inMemory(history), clock)
}

/** Presses `keys` (vim notation) in order; the effect of each. */
function press(w: PromptWidget, ...keys: string[]): PromptEffect[] {
  return keys.map((key) => w.key(key))
}

/** Types `bytes` at the widget as a terminal sends them (readline decoding, the session's key notation). */
async function type(w: PromptWidget, bytes: string): Promise<PromptEffect[]> {
  return press(w, ...(await typedKeys(bytes, {vim: w.inputMode === 'vim'})))
}

const typeText = (w: PromptWidget, text: string) => press(w, ...text)

describe('PromptWidget editing keys', () => {
  it('inserts typed text at the cursor and moves it with the arrows, Home and End', () => {
    const w = widget()
    expect(typeText(w, 'helo')).toEqual(Array.from({length: 4}, () => ({kind: 'changed'})))
    press(w, '<Left>', 'l')
    expect([w.text, w.cursor]).toEqual(['hello', 4])
    press(w, '<Home>', '>', ' ', '<End>', '!')
    expect([w.text, w.cursor]).toEqual(['> hello!', 8])
    press(w, '<Right>')
    expect(w.cursor).toBe(8)
  })

  it('deletes with Backspace, Delete, Ctrl-W (a word) and Ctrl-U (to the line start)', () => {
    const w = widget()
    typeText(w, 'one two three')
    press(w, '<BS>')
    expect(w.text).toBe('one two thre')
    press(w, '<C-w>')
    expect(w.text).toBe('one two ')
    press(w, '<Home>', '<Del>')
    expect([w.text, w.cursor]).toEqual(['ne two ', 0])
    press(w, '<End>', '<C-u>')
    expect([w.text, w.cursor]).toEqual(['', 0])
    expect(press(w, '<BS>')).toEqual([{kind: 'changed'}])
  })

  it('deletes a wide or astral character whole', () => {
    const w = widget()
    typeText(w, 'a😀中')
    press(w, '<BS>')
    expect(w.text).toBe('a😀')
    press(w, '<BS>')
    expect(w.text).toBe('a')
  })

  it('submits on Enter and starts empty again', () => {
    const w = widget()
    typeText(w, 'explain this')
    expect(w.key('<CR>')).toEqual({kind: 'submit', text: 'explain this'})
    expect([w.text, w.cursor]).toEqual(['', 0])
    expect(w.key('<CR>')).toEqual({kind: 'submit', text: ''})
  })

  it('ignores Esc outside vim mode (it belongs to the session) and stays inserting', () => {
    const w = widget('emacs')
    typeText(w, 'abc')
    expect(w.key('<Esc>')).toEqual({kind: 'none'})
    expect([w.text, w.cursor, w.inserting, w.vimMode, w.commandLine]).toEqual(['abc', 3, true, undefined, undefined])
    // A key that would leave Insert mode in vim leaves the widget inserting, the cursor in place.
    press(w, '<C-c>', 'd')
    expect([w.text, w.inserting]).toEqual(['abcd', true])
  })

  it('replaces a range with a completion, the cursor after it', () => {
    const w = widget()
    typeText(w, 'read @sr please')
    w.replace(5, 8, '@src/')
    expect([w.text, w.cursor]).toEqual(['read @src/ please', 10])
  })
})

describe('PromptWidget multi-line input', () => {
  it('turns a `\\` before Enter into a new line, Enter then submits both', () => {
    const w = widget()
    typeText(w, 'line one\\')
    expect(w.key('<CR>')).toEqual({kind: 'changed'})
    expect([w.text, w.cursor]).toEqual(['line one\n', 9])
    typeText(w, 'line two')
    expect(w.key('<CR>')).toEqual({kind: 'submit', text: 'line one\nline two'})
  })

  it('keeps a `\\` in the middle of the text: only the one before the cursor continues the line', () => {
    const w = widget()
    typeText(w, 'a\\b')
    expect(w.key('<CR>')).toEqual({kind: 'submit', text: 'a\\b'})
  })

  it('adds a line with Alt+Enter and Ctrl-J, as typed at a terminal', async () => {
    const w = widget()
    await type(w, 'first\u001B\rsecond\nthird')
    expect(w.text).toBe('first\nsecond\nthird')
    expect((await type(w, 'back\\\rslash\r')).at(-1)).toEqual({kind: 'submit', text: 'first\nsecond\nthirdback\nslash'})
  })

  it('moves between lines with Up and Down inside the text instead of walking the history', () => {
    const w = widget('default', ['older'])
    typeText(w, 'ab')
    press(w, '<S-CR>')
    typeText(w, 'cd')
    expect(w.key('<Up>')).toEqual({kind: 'changed'})
    expect(w.text).toBe('ab\ncd')
    // The same column, after the line's last character as in an editor.
    expect(w.cursor).toBe(2)
    expect(w.key('<Down>')).toEqual({kind: 'changed'})
    expect(w.cursor).toBe(5)
    press(w, '<Up>', '<Up>')
    expect(w.text).toBe('older')
  })
})

describe('PromptWidget history', () => {
  it('walks back with Up from the first line and forward with Down, then gives back the draft', () => {
    const w = widget('default', ['first', 'second'])
    typeText(w, 'draft')
    expect(w.key('<Up>')).toEqual({kind: 'changed'})
    expect([w.text, w.cursor]).toEqual(['second', 6])
    press(w, '<Up>')
    expect(w.text).toBe('first')
    expect(w.key('<Up>')).toEqual({kind: 'none'})
    press(w, '<Down>')
    expect(w.text).toBe('second')
    press(w, '<Down>')
    expect(w.text).toBe('draft')
    expect(w.key('<Down>')).toEqual({kind: 'none'})
  })

  it('does nothing on an empty history, and starts over after a submit', () => {
    expect(widget().key('<Up>')).toEqual({kind: 'none'})
    const w = widget('default', ['one', 'two'])
    press(w, '<Up>', '<Up>')
    expect(w.key('<CR>')).toEqual({kind: 'submit', text: 'one'})
    press(w, '<Up>')
    expect(w.text).toBe('two')
  })

  it('walks it in vim Normal mode too', () => {
    const w = widget('vim', ['remembered'])
    press(w, '<Esc>', '<Up>')
    expect(w.text).toBe('remembered')
  })
})

describe('PromptWidget vim mode', () => {
  it('starts in Insert mode, Esc goes to Normal mode, i back to Insert', () => {
    const w = widget('vim')
    expect([w.vimMode, w.inserting]).toEqual(['insert', true])
    typeText(w, 'hello world')
    press(w, '<Esc>')
    expect([w.vimMode, w.inserting, w.cursor]).toEqual(['normal', false, 10])
    press(w, '0', 'c', 'w')
    expect([w.vimMode, w.text]).toEqual(['insert', ' world'])
    typeText(w, 'bye')
    press(w, '<Esc>')
    expect([w.vimMode, w.text]).toEqual(['normal', 'bye world'])
  })

  it('submits with Enter from Normal mode, and with Alt+Enter (Esc, Enter) from Insert mode', async () => {
    const w = widget('vim')
    typeText(w, 'from normal')
    press(w, '<Esc>')
    expect(w.key('<CR>')).toEqual({kind: 'submit', text: 'from normal'})
    expect(w.vimMode).toBe('insert')
    expect((await type(w, 'alt enter\u001B\r')).at(-1)).toEqual({kind: 'submit', text: 'alt enter'})
  })

  it('`:w` submits, `:q` exits, an unknown command is a message; the command line shows while typed', () => {
    const w = widget('vim')
    typeText(w, 'a prompt')
    press(w, '<Esc>', ':')
    expect([w.vimMode, w.commandLine]).toEqual(['command', ':'])
    press(w, 'w')
    expect(w.commandLine).toBe(':w')
    expect(w.key('<CR>')).toEqual({kind: 'submit', text: 'a prompt'})
    expect([w.text, w.vimMode, w.commandLine]).toEqual(['', 'insert', undefined])

    press(w, '<Esc>', ':', 'q')
    expect(w.key('<CR>')).toEqual({kind: 'exit'})
    press(w, '<Esc>', ':', 'q', '!')
    expect(w.key('<CR>')).toEqual({kind: 'exit'})
    press(w, '<Esc>', ...':nope')
    expect(w.key('<CR>')).toEqual({kind: 'message', message: 'E492: Not an editor command: nope'})
    expect(w.vimMode).toBe('normal')
  })

  it('leaves the command line with Esc, the text kept', () => {
    const w = widget('vim')
    typeText(w, 'keep')
    press(w, '<Esc>', ':', 'w', '<Esc>')
    expect([w.vimMode, w.commandLine, w.text]).toEqual(['normal', undefined, 'keep'])
  })

  it('switches modes with the text kept, inserting', () => {
    const w = widget('default')
    typeText(w, 'typed')
    w.setMode('vim')
    expect([w.inputMode, w.vimMode, w.text, w.cursor]).toEqual(['vim', 'insert', 'typed', 5])
    press(w, '<Esc>')
    w.setMode('emacs')
    expect([w.inputMode, w.vimMode, w.inserting, w.text]).toEqual(['emacs', undefined, true, 'typed'])
  })

  it('drops a pending operator once its timeout passes, on tick', () => {
    let now = 0
    const w = widget('vim', [], () => now)
    typeText(w, 'abc')
    press(w, '<Esc>', 'd')
    expect(w.tick()).toBe(false)
    now = 10_000
    expect(w.tick()).toBe(true)
    // `d` has gone: `w` alone is a motion, nothing is deleted.
    press(w, 'w')
    expect(w.text).toBe('abc')
    expect(widget('default').tick()).toBe(false)
  })
})
