import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {
  createVimState,
  DEFAULT_VIM_OPTIONS,
  expirePending,
  parseKeys,
  type VimEffect,
  VimInput,
  vimKey,
  type VimMode,
  type VimOptions,
} from '../../src/core/input/index.js'
import {REPO_ROOT} from '../helpers/cli.js'

interface RegisterValue {
  text: string
  linewise: boolean
}

interface Vector {
  name: string
  description: string
  buffer: string
  /** In characters (code points), as every implementation counts them. */
  cursor: number
  keys: string
  mode?: VimMode
  expect: {
    buffer: string
    cursor: number
    mode: VimMode
    register?: RegisterValue
    registers?: Record<string, RegisterValue>
    commandLine?: string
    pending?: string[]
    options?: Partial<VimOptions>
    submitted?: string
    exit?: {force: boolean}
    message?: string
    error?: string
  }
}

const {cases} = JSON.parse(readFileSync(join(REPO_ROOT, 'test-vectors', 'vim-keys.json'), 'utf8')) as {cases: Vector[]}

/** UTF-16 offset of the `chars`-th character, and back: the machine counts UTF-16 units. */
const toOffset = (text: string, chars: number) => [...text].slice(0, chars).join('').length
const toChars = (text: string, offset: number) => [...text.slice(0, offset)].length

describe('vim-keys vectors (HIP-301 §10)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, vector) => {
    // One key per millisecond: well inside the 500 ms pending timeout.
    let now = 0
    const input = new VimInput(() => now, {
      buffer: vector.buffer,
      cursor: toOffset(vector.buffer, vector.cursor),
      mode: vector.mode ?? 'normal',
    })
    const effects: VimEffect[] = []
    for (const key of parseKeys(vector.keys)) {
      now += 1
      const effect = input.key(key)
      if (effect) effects.push(effect)
    }

    const {state} = input
    const want = vector.expect
    expect({buffer: state.buffer, cursor: toChars(state.buffer, state.cursor), mode: state.mode}).toEqual({
      buffer: want.buffer,
      cursor: want.cursor,
      mode: want.mode,
    })
    expect(state.cursor, 'the cursor is on a character, not inside a surrogate pair').toBe(
      toOffset(state.buffer, toChars(state.buffer, state.cursor)),
    )
    if (want.register) expect(state.registers['"'], 'unnamed register').toEqual(want.register)
    for (const [name, value] of Object.entries(want.registers ?? {}))
      expect(state.registers[name], `register ${name}`).toEqual(value)
    if (state.mode === 'command') expect(state.commandLine).toBe(want.commandLine)
    expect(state.pending).toEqual(want.pending ?? [])
    expect(state.options).toEqual({...DEFAULT_VIM_OPTIONS, ...want.options})
    // Every effect is in `expect`, and an effect it does not name did not happen.
    expect(effects.filter((e) => e.kind === 'submit').map((e) => e.text)).toEqual(
      want.submitted === undefined ? [] : [want.submitted],
    )
    expect(effects.filter((e) => e.kind === 'exit').map((e) => ({force: e.force}))).toEqual(
      want.exit ? [want.exit] : [],
    )
    expect(effects.filter((e) => e.kind === 'message').map((e) => e.message)).toEqual(
      want.message === undefined ? [] : [want.message],
    )
    expect(effects.filter((e) => e.kind === 'error').map((e) => e.message)).toEqual(
      want.error === undefined ? [] : [want.error],
    )
  })
})

describe('the pending-sequence timeout (timeoutlen, 500 ms by default)', () => {
  const start = () => createVimState({buffer: 'one two three', cursor: 0, mode: 'normal'})

  it('a second key within 500 ms completes the operator', () => {
    let state = vimKey(start(), 'd', 1000).state
    expect(state.pending).toEqual(['d'])
    state = vimKey(state, 'w', 1500).state
    expect(state.buffer).toBe('two three')
  })

  it('a second key after 500 ms starts a new command: `d` pause `w` is only the motion', () => {
    let state = vimKey(start(), 'd', 1000).state
    state = vimKey(state, 'w', 1501).state
    expect(state).toMatchObject({buffer: 'one two three', cursor: 4, pending: []})
  })

  it('expirePending drops a sequence older than timeoutlen and nothing younger', () => {
    const pending = vimKey(start(), 'd', 1000).state
    expect(expirePending(pending, 1500)).toBe(pending)
    expect(expirePending(pending, 1501).pending).toEqual([])
    const idle = start()
    expect(expirePending(idle, 99_999)).toBe(idle)
  })

  it('each key of a longer sequence restarts the wait (`"a` then `d` then `d`)', () => {
    let state = createVimState({buffer: 'one\ntwo', cursor: 0, mode: 'normal'})
    state = vimKey(state, '"', 0).state
    state = vimKey(state, 'a', 400).state
    state = vimKey(state, 'd', 800).state
    state = vimKey(state, 'd', 1200).state
    expect(state.buffer).toBe('two')
    expect(state.registers.a).toEqual({linewise: true, text: 'one\n'})
  })

  it('`:set timeoutlen` changes the wait', () => {
    let state = start()
    for (const key of parseKeys(':set timeoutlen=1000<CR>')) state = vimKey(state, key, 0).state
    state = vimKey(state, 'd', 1000).state
    expect(expirePending(state, 1900).pending).toEqual(['d'])
    state = vimKey(state, 'w', 1900).state
    expect(state.buffer).toBe('two three')
  })

  it('VimInput.tick() reports when a timed-out sequence was dropped', () => {
    let now = 0
    const input = new VimInput(() => now, {buffer: 'abc', cursor: 0, mode: 'normal'})
    input.key('d')
    now = 300
    expect(input.tick()).toBe(false)
    expect(input.state.pending).toEqual(['d'])
    now = 900
    expect(input.tick()).toBe(true)
    expect(input.state.pending).toEqual([])
    // The `d` is gone: `w` alone moves instead of deleting.
    input.key('w')
    expect(input.state).toMatchObject({buffer: 'abc', cursor: 2})
  })
})
