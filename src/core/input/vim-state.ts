// The state of one vim-mode input widget: what HIP-301 §10 keeps per widget (mode, registers,
// pending operator), with the buffer, undo history and the last change for `.`.
import type {VimCommand} from './vim-parse.js'

export type VimMode = 'normal' | 'insert' | 'visual' | 'command'

export interface Register {
  text: string
  /** Put as whole lines (from `yy`, `dd`, `dj`) rather than inside a line. */
  linewise: boolean
}

export interface Snapshot {
  buffer: string
  cursor: number
}

export interface VimOptions {
  /** How long (ms) a pending sequence (`d`, `g`, `"a`) waits for its next key. */
  timeoutlen: number
  showmode: boolean
  number: boolean
}

/** A change `.` repeats: the command and the keys typed in the Insert mode it started. */
export interface Change {
  command: VimCommand
  insertKeys: readonly string[]
}

export interface VimState {
  readonly buffer: string
  /** A UTF-16 offset into `buffer`. In Normal mode it rests on a character, never on a "\n". */
  readonly cursor: number
  readonly mode: VimMode
  /** The keys of an unfinished command (`d`, `2d`, `"a`, `f`). */
  readonly pending: readonly string[]
  /** When the last pending key came (the injected clock's time). */
  readonly pendingAt: number
  /** The column (in characters) `j` and `k` aim for, kept through shorter lines; Infinity after `$`. */
  readonly curswant?: number
  /** The other end of the Visual selection. */
  readonly anchor: number
  /** What is typed after `:`. */
  readonly commandLine: string
  readonly registers: Readonly<Record<string, Register>>
  readonly undo: readonly Snapshot[]
  readonly redo: readonly Snapshot[]
  readonly lastChange?: Change
  /** The change being typed in Insert mode, until Esc ends it. */
  readonly recording?: Change
  /** `3ix<Esc>`: the text typed since `start` is put `count` times in all. */
  readonly insertRepeat?: {start: number; count: number}
  readonly options: VimOptions
}

export type VimEffect =
  | {kind: 'submit'; text: string}
  | {kind: 'exit'; force: boolean}
  | {kind: 'error'; message: string}
  | {kind: 'message'; message: string}

export interface VimResult {
  state: VimState
  effect?: VimEffect
}

export const DEFAULT_VIM_OPTIONS: VimOptions = {number: false, showmode: true, timeoutlen: 500}
const UNDO_LIMIT = 200

export function createVimState(
  init: {buffer?: string; cursor?: number; mode?: VimMode; options?: Partial<VimOptions>} = {},
): VimState {
  const buffer = init.buffer ?? ''
  return {
    anchor: 0,
    buffer,
    commandLine: '',
    cursor: Math.max(0, Math.min(init.cursor ?? buffer.length, buffer.length)),
    mode: init.mode ?? 'insert',
    options: {...DEFAULT_VIM_OPTIONS, ...init.options},
    pending: [],
    pendingAt: 0,
    redo: [],
    registers: {},
    undo: [],
  }
}

/** Replaces the text (history recall, a cleared prompt after submit): a new undo step. */
export function withBuffer(state: VimState, buffer: string, cursor = buffer.length): VimState {
  return {...pushUndo(state, state), buffer, cursor: Math.min(cursor, buffer.length), pending: [], recording: undefined}
}

export function pushUndo(state: VimState, before: Snapshot): VimState {
  return {...state, redo: [], undo: [...state.undo, {buffer: before.buffer, cursor: before.cursor}].slice(-UNDO_LIMIT)}
}

/**
 * Stores yanked or deleted text: in the unnamed register always, in `"0` for a yank, in a named
 * register when one was given (`"A` appends to `"a`); `"_` stores nothing.
 */
export function writeRegister(state: VimState, name: string | undefined, value: Register, yank: boolean): VimState {
  if (name === '_') return state
  const registers: Record<string, Register> = {...state.registers, '"': value}
  if (yank) registers['0'] = value
  if (name !== undefined && /^[a-z]$/.test(name)) registers[name] = value
  if (name !== undefined && /^[A-Z]$/.test(name)) {
    const lower = name.toLowerCase()
    const old = registers[lower]
    registers[lower] = old ? {linewise: old.linewise || value.linewise, text: old.text + value.text} : value
    registers['"'] = registers[lower]
  }

  return {...state, registers}
}

export function readRegister(state: VimState, name: string | undefined): Register | undefined {
  return state.registers[name === undefined || name === '"' ? '"' : name.toLowerCase()]
}
