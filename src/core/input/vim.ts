// The vim input mode of HIP-301 §10 as a pure state machine: (state, key, now) -> new state and
// perhaps an effect for the widget (submit, exit, a message). Keys are vim notation: a printable
// character (or pasted text) as itself, special keys as `<Esc>`, `<CR>`, `<S-CR>`, `<BS>`, `<Del>`,
// `<Left>`, `<C-r>`, `<C-w>`... (see key-notation.ts). Time comes from the caller's clock, so the
// 500 ms pending-operator timeout is testable and nothing here reads the wall clock.
import {
  charsForward,
  clampNormal,
  column,
  lineAt,
  lineCount,
  lineEnd,
  lineIndex,
  lineStart,
  nextChar,
  prevChar,
} from './text.js'
import {motionTarget} from './vim-motions.js'
import {commandKey} from './vim-ex.js'
import {execute} from './vim-edit.js'
import {parseCommand, type VimCommand} from './vim-parse.js'
import {createVimState, pushUndo, type VimEffect, type VimResult, type VimState} from './vim-state.js'

export function vimKey(state: VimState, key: string, now: number): VimResult {
  switch (state.mode) {
    case 'insert': {
      const result = insertKey(state, key)
      const recording = state.recording && {...state.recording, insertKeys: [...state.recording.insertKeys, key]}
      if (result.state.mode === 'insert') return {...result, state: {...result.state, recording}}
      return {
        ...result,
        state: {...result.state, lastChange: recording ?? result.state.lastChange, recording: undefined},
      }
    }

    case 'command':
      return commandKey(state, key)
    default:
      return normalKey(expirePending(state, now), key, now)
  }
}

/** Drops a pending sequence whose next key did not come within `timeoutlen` (the UI calls this on a timer too). */
export function expirePending(state: VimState, now: number): VimState {
  return state.pending.length > 0 && now - state.pendingAt > state.options.timeoutlen ? {...state, pending: []} : state
}

function normalKey(state: VimState, key: string, now: number): VimResult {
  const keys = [...state.pending, key]
  const parsed = parseCommand(keys, state.mode === 'visual')
  if (parsed.status === 'incomplete') return {state: {...state, pending: keys, pendingAt: now}}
  const cleared = {...state, pending: []}
  if (parsed.status === 'invalid') return {state: cleared}
  const result = run(cleared, parsed.command, state.mode === 'normal')
  // Only `j`, `k` (and `$`, which sets it) keep the column `j` and `k` aim for.
  return parsed.command.kind === 'motion' ? result : {...result, state: {...result.state, curswant: undefined}}
}

function isChange(command: VimCommand): boolean {
  if (command.kind === 'operator') return command.op !== 'y'
  if (command.kind !== 'action') return false
  return ['i', 'a', 'I', 'A', 'o', 'O', 'p', 'P', 'J', '~', 'r', 'S'].includes(command.action)
}

/** Runs a command with its undo step and, when `record`, remembers it for `.`. */
function run(state: VimState, command: VimCommand, record: boolean): VimResult {
  const special = command.kind === 'action' ? command.action : undefined
  if (special === '.') return repeat(state, command.count)
  if (special === 'u' || special === '<C-r>') return history(state, special === 'u', command.count ?? 1)
  if (special === '<CR>') return {effect: {kind: 'submit', text: state.buffer}, state}
  if (special === 'Y' || special === 'S')
    return run(
      state,
      {
        count: command.count,
        kind: 'operator',
        op: special === 'Y' ? 'y' : 'c',
        register: command.kind === 'action' ? command.register : undefined,
        target: {kind: 'line'},
      },
      record,
    )
  const {state: next, effect, changeAt} = execute(state, command)
  if (!isChange(command)) return {effect, state: next}
  const change = {command, insertKeys: []}
  const before = {buffer: state.buffer, cursor: changeAt ?? state.cursor}
  if (next.mode === 'insert')
    return {effect, state: {...pushUndo(next, before), recording: record ? change : undefined}}
  if (next.buffer === state.buffer) return {effect, state: next}
  return {effect, state: {...pushUndo(next, before), lastChange: record ? change : next.lastChange}}
}

/** `.`: the last change again, with a new count if one is given, and what was typed in its Insert mode. */
function repeat(state: VimState, count: number | undefined): VimResult {
  const change = state.lastChange
  if (!change) return {state}
  const command = count === undefined ? change.command : {...change.command, count}
  let result = run(state, command, false)
  for (const key of change.insertKeys) {
    if (result.state.mode !== 'insert') break
    result = insertKey(result.state, key)
  }

  return {...result, state: {...result.state, lastChange: change, recording: undefined}}
}

function history(state: VimState, undo: boolean, count: number): VimResult {
  let next = state
  for (let i = 0; i < count; i++) {
    const from = undo ? next.undo : next.redo
    const snapshot = from.at(-1)
    if (!snapshot) {
      if (i === 0)
        return {
          effect: {kind: 'message', message: undo ? 'Already at oldest change' : 'Already at newest change'},
          state,
        }
      break
    }

    // Both ways the cursor goes to where the change was.
    const current = {buffer: next.buffer, cursor: snapshot.cursor}
    next = {
      ...next,
      buffer: snapshot.buffer,
      cursor: clampNormal(snapshot.buffer, snapshot.cursor),
      redo: undo ? [...next.redo, current] : next.redo.slice(0, -1),
      undo: undo ? next.undo.slice(0, -1) : [...next.undo, current],
    }
  }

  return {state: next}
}

const INSERT_MOTIONS: Record<string, string> = {
  '<Down>': 'j',
  '<End>': '$',
  '<Home>': '0',
  '<Left>': 'h',
  '<Right>': 'l',
  '<Up>': 'k',
}

/** Up or Down in Insert mode: the same column on the next line, or its end when it is shorter (not its last character, as in Normal mode). */
function insertLineMove(text: string, cursor: number, by: 1 | -1): number {
  const target = lineIndex(text, cursor) + by
  if (target < 0 || target >= lineCount(text)) return cursor
  const start = lineAt(text, target)
  const end = lineEnd(text, start)
  return charsForward(text, start, column(text, cursor), end)
}

function insertKey(state: VimState, key: string): VimResult {
  const text = state.buffer
  const {cursor} = state
  const edit = (from: number, to: number, inserted = ''): VimResult => ({
    state: {...state, buffer: text.slice(0, from) + inserted + text.slice(to), cursor: from + inserted.length},
  })
  switch (key) {
    case '<Esc>':
    case '<C-c>':
      return {state: leaveInsert(state)}
    case '<CR>':
      return {effect: {kind: 'submit', text}, state}
    case '<S-CR>':
    case '<C-j>':
      return edit(cursor, cursor, '\n')
    case '<BS>':
      return cursor === 0
        ? {state}
        : edit(cursor - [...text.slice(Math.max(0, cursor - 2), cursor)].at(-1)!.length, cursor)
    case '<Del>':
      return cursor >= text.length ? {state} : edit(cursor, cursor + [...text.slice(cursor, cursor + 2)][0].length)
    case '<C-w>': {
      const target = motionTarget(text, cursor, 'b', 1)
      return target
        ? edit(Math.max(target.pos, cursor > lineStart(text, cursor) ? lineStart(text, cursor) : 0), cursor)
        : {state}
    }

    case '<C-u>':
      return edit(lineStart(text, cursor), cursor)
    default: {
      const motion = INSERT_MOTIONS[key]
      if (motion) {
        // In Insert mode the cursor may sit after the line's last character.
        if (motion === '$') return {state: {...state, cursor: lineEnd(text, cursor)}}
        if (motion === 'l') return {state: {...state, cursor: Math.min(lineEnd(text, cursor), nextChar(text, cursor))}}
        if (motion === 'j' || motion === 'k')
          return {state: {...state, cursor: insertLineMove(text, cursor, motion === 'j' ? 1 : -1)}}
        const target = motionTarget(text, cursor, motion, 1)
        return {state: target ? {...state, cursor: target.pos} : state}
      }

      if (key.length > 1 && key.startsWith('<') && key.endsWith('>')) return {state}
      return edit(cursor, cursor, key)
    }
  }
}

function leaveInsert(state: VimState): VimState {
  let {buffer, cursor} = state
  const repeat = state.insertRepeat
  if (repeat && cursor > repeat.start) {
    const typed = buffer.slice(repeat.start, cursor).repeat(repeat.count - 1)
    buffer = buffer.slice(0, cursor) + typed + buffer.slice(cursor)
    cursor += typed.length
  }

  const undo = state.undo.at(-1)?.buffer === buffer ? state.undo.slice(0, -1) : state.undo
  const back = cursor > lineStart(buffer, cursor) ? prevChar(buffer, cursor) : cursor
  return {...state, buffer, cursor: clampNormal(buffer, back), insertRepeat: undefined, mode: 'normal', undo}
}

/** One input widget's vim state with its clock: what the UI holds per prompt. */
export class VimInput {
  state: VimState

  constructor(
    private readonly clock: () => number,
    init?: Parameters<typeof createVimState>[0],
  ) {
    this.state = createVimState(init)
  }

  key(key: string): VimEffect | undefined {
    const result = vimKey(this.state, key, this.clock())
    this.state = result.state
    return result.effect
  }

  /** Ends a timed-out pending sequence; true when that changed what the widget shows. */
  tick(): boolean {
    const next = expirePending(this.state, this.clock())
    const changed = next !== this.state
    this.state = next
    return changed
  }
}
