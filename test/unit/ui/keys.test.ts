import {describe, expect, it} from 'vitest'

import {keyNotations} from '../../../src/ui/keys.js'
import {typedKeys} from '../../helpers/keypresses.js'

const typed = (bytes: string, vim = false) => typedKeys(bytes, {vim})

describe('keys in vim notation', () => {
  it('gives printable characters as themselves, a paste one by one', async () => {
    expect(await typed('a')).toEqual(['a'])
    expect(await typed('中')).toEqual(['中'])
    expect(await typed('hi there')).toEqual(['h', 'i', ' ', 't', 'h', 'e', 'r', 'e'])
    expect(await typed('\t')).toEqual(['\t'])
  })

  it('names the editing keys and Ctrl+letter', async () => {
    const keys = {
      '\u001B[3~': '<Del>',
      '\u001B[A': '<Up>',
      '\u001B[B': '<Down>',
      '\u001B[C': '<Right>',
      '\u001B[D': '<Left>',
      '\u001B[F': '<End>',
      '\u001B[H': '<Home>',
      '\u0003': '<C-c>',
      '\u0004': '<C-d>',
      '\u0012': '<C-r>',
      '\u0015': '<C-u>',
      '\u0017': '<C-w>',
      '\u007F': '<BS>',
    }
    for (const [bytes, notation] of Object.entries(keys))
      expect(await typed(bytes), JSON.stringify(bytes)).toEqual([notation])
  })

  it('tells Enter (CR) from Ctrl-J (LF) and Alt+Enter', async () => {
    expect(await typed('\r')).toEqual(['<CR>'])
    expect(await typed('\n')).toEqual(['<C-j>'])
    expect(await typed('\u001B\r')).toEqual(['<S-CR>'])
    expect(await typed('line one\nline two\r')).toEqual([...'line one', '<C-j>', ...'line two', '<CR>'])
    expect(keyNotations('\r', {name: 'return', sequence: '\r', shift: true}, {vim: false})).toEqual(['<S-CR>'])
  })

  it('in vim mode reads Alt+Enter as Esc then Enter (leave Insert mode, submit)', async () => {
    expect(await typed('\u001B\r', true)).toEqual(['<Esc>', '<CR>'])
    expect(await typed('\r', true)).toEqual(['<CR>'])
    expect(await typed('\n', true)).toEqual(['<C-j>'])
  })

  it('splits Esc and the key typed right after it (Alt+key) into both keys', async () => {
    for (const vim of [false, true]) {
      expect(await typed('\u001B0', vim)).toEqual(['<Esc>', '0'])
      expect(await typed('\u001Bx', vim)).toEqual(['<Esc>', 'x'])
      expect(await typed('\u001B:', vim)).toEqual(['<Esc>', ':'])
    }

    expect(keyNotations(undefined, {meta: true, name: 'b', sequence: '\u001Bb'}, {vim: false})).toEqual(['<Esc>', 'b'])
    // Esc alone: readline holds it until the next key or its timeout, then names it.
    expect(keyNotations('\u001B', {name: 'escape', sequence: '\u001B'}, {vim: true})).toEqual(['<Esc>'])
    // Esc Esc typed fast comes as one Alt+Esc: both count (Esc Esc opens /rewind).
    expect(keyNotations(undefined, {meta: true, name: 'escape', sequence: '\u001B\u001B'}, {vim: false})).toEqual([
      '<Esc>',
      '<Esc>',
    ])
  })

  it('drops keys the widgets do not use: F-keys, unknown sequences, Ctrl+arrows, other control characters', async () => {
    expect(await typed('\u001BOP')).toEqual([])
    expect(await typed('\u001B[15~')).toEqual([])
    expect(await typed('\u001B[13;2u')).toEqual([])
    expect(await typed('\u001B[1;5A')).toEqual([])
    expect(keyNotations('\u0000', {ctrl: true, name: 'space', sequence: '\u0000'}, {vim: false})).toEqual([])
    expect(keyNotations('\u001C', {sequence: '\u001C'}, {vim: false})).toEqual([])
    expect(keyNotations(undefined, undefined, {vim: false})).toEqual([])
  })
})
