// What a parsed Normal- or Visual-mode command does to the state: motions, operators over a
// range, puts, and the commands that open Insert mode. Undo and `.` bookkeeping is the caller's.
import {charsForward, clampNormal, column, firstNonBlank, lineEnd, lineStart, nextChar, prevChar} from './text.js'
import {motionTarget, textObject} from './vim-motions.js'
import type {Operator, VimCommand} from './vim-parse.js'
import {readRegister, type VimResult, type VimState, writeRegister} from './vim-state.js'

/** What a command did, with where its change starts: the cursor `u` restores (vim's undo cursor). */
export interface Executed extends VimResult {
  changeAt?: number
}

interface Range {
  start: number
  end: number
  linewise: boolean
}

export function execute(state: VimState, command: VimCommand): Executed {
  const visual = state.mode === 'visual'
  switch (command.kind) {
    case 'motion': {
      const vertical = command.motion === 'j' || command.motion === 'k'
      const want = vertical ? (state.curswant ?? column(state.buffer, state.cursor)) : undefined
      const target = motionTarget(state.buffer, state.cursor, command.motion, command.count, command.arg, want)
      if (!target) return {state}
      return {
        state: {
          ...state,
          cursor: clampNormal(state.buffer, target.pos),
          curswant: command.motion === '$' ? Infinity : want,
        },
      }
    }

    case 'operator': {
      const range = visual ? selection(state, command.target.kind === 'line') : operatorRange(state, command)
      if (!range) return {state}
      // `u` after `d` or `c` puts the cursor where the text went (`cc` at its first non-blank).
      const changeAt = range.linewise
        ? command.op === 'c'
          ? firstNonBlank(state.buffer, range.start)
          : undefined
        : range.start
      return {changeAt, state: applyOperator({...state, mode: 'normal'}, command.op, range, command.register)}
    }

    case 'action': {
      const next = action(state, command)
      // After an Insert session, `u` returns to where typing started.
      return {changeAt: ['i', 'a', 'I', 'A'].includes(command.action) ? next.cursor : undefined, state: next}
    }
  }
}

function selection(state: VimState, linewise: boolean): Range {
  const start = Math.min(state.anchor, state.cursor)
  const end = nextChar(state.buffer, Math.max(state.anchor, state.cursor))
  return {end, linewise, start}
}

function operatorRange(state: VimState, command: Extract<VimCommand, {kind: 'operator'}>): Range | undefined {
  const {buffer: text, cursor} = state
  const {target} = command
  if (target.kind === 'line') {
    const last = lineEnd(text, cursor)
    let end = last
    for (let n = 1; n < (command.count ?? 1) && end < text.length; n++) end = lineEnd(text, end + 1)
    return {end, linewise: true, start: lineStart(text, cursor)}
  }

  if (target.kind === 'object') {
    const object = textObject(text, cursor, target.around, target.key)
    return object && {...object, linewise: false}
  }

  let motion = target.motion
  // `cw` on a word changes to its end, like `ce`, keeping the blank after it.
  if (command.op === 'c' && (motion === 'w' || motion === 'W') && !/\s/.test(text[cursor] ?? ' '))
    motion = motion === 'w' ? 'e' : 'E'
  const landed = motionTarget(text, cursor, motion, command.count, target.arg)
  if (!landed) return undefined
  if (landed.kind === 'linewise') {
    const [a, b] = [Math.min(cursor, landed.pos), Math.max(cursor, landed.pos)]
    return {end: lineEnd(text, b), linewise: true, start: lineStart(text, a)}
  }

  let end = landed.kind === 'inclusive' ? nextChar(text, Math.max(cursor, landed.pos)) : Math.max(cursor, landed.pos)
  const start = Math.min(cursor, landed.pos)
  // `dw` on a line's last word stops at the line's end instead of taking the next line's indent.
  if ((motion === 'w' || motion === 'W') && lineStart(text, landed.pos) > lineEnd(text, cursor))
    end = Math.max(start, lineStart(text, landed.pos) - 1)

  return {end, linewise: false, start}
}

function applyOperator(state: VimState, op: Operator, range: Range, register: string | undefined): VimState {
  const text = state.buffer
  const {linewise} = range
  const start = linewise ? lineStart(text, range.start) : range.start
  const end = linewise ? lineEnd(text, range.end) : range.end
  const withReg = writeRegister(
    state,
    register,
    {linewise, text: text.slice(start, end) + (linewise ? '\n' : '')},
    op === 'y',
  )
  if (op === 'y') {
    // A yank leaves the cursor where the yanked text starts (`yy` and `yj` keep it on its line).
    const at = linewise ? (start === lineStart(text, state.cursor) ? state.cursor : start) : start
    return {...withReg, cursor: clampNormal(text, at)}
  }

  if (op === 'c') {
    const buffer = text.slice(0, start) + text.slice(end)
    return {...withReg, buffer, cursor: start, mode: 'insert'}
  }

  if (!linewise) {
    const buffer = text.slice(0, start) + text.slice(end)
    return {...withReg, buffer, cursor: clampNormal(buffer, start)}
  }

  // Whole lines go with their "\n"; the last line takes the "\n" before it instead.
  const [from, to] = end < text.length ? [start, end + 1] : [Math.max(0, start - 1), end]
  const buffer = text.slice(0, from) + text.slice(to)
  return {...withReg, buffer, cursor: clampNormal(buffer, firstNonBlank(buffer, Math.min(from, buffer.length)))}
}

function action(state: VimState, command: Extract<VimCommand, {kind: 'action'}>): VimState {
  const text = state.buffer
  const {cursor} = state
  const n = command.count ?? 1
  if (state.mode === 'visual' && command.action === 'o') return {...state, anchor: cursor, cursor: state.anchor}
  switch (command.action) {
    case 'i':
    case 'a':
    case 'I':
    case 'A': {
      const lineEmpty = lineStart(text, cursor) === lineEnd(text, cursor)
      const at = {
        A: lineEnd(text, cursor),
        I: firstNonBlank(text, cursor),
        a: lineEmpty ? cursor : nextChar(text, cursor),
        i: cursor,
      }[command.action]
      return {...state, cursor: at, insertRepeat: n > 1 ? {count: n, start: at} : undefined, mode: 'insert'}
    }

    case 'o':
    case 'O': {
      const at = command.action === 'o' ? lineEnd(text, cursor) : lineStart(text, cursor)
      return {
        ...state,
        buffer: text.slice(0, at) + '\n' + text.slice(at),
        cursor: command.action === 'o' ? at + 1 : at,
        mode: 'insert',
      }
    }

    case 'p':
    case 'P':
      return put(state, command.action === 'p', command.register, n)
    case 'v':
      return {...state, anchor: cursor, mode: state.mode === 'visual' ? 'normal' : 'visual'}
    case '<Esc>':
      return {...state, mode: 'normal'}
    case ':':
      return {...state, commandLine: '', mode: 'command'}
    case 'J':
      return join(state, Math.max(2, n))
    case '~': {
      const [start, end] =
        state.mode === 'visual'
          ? [Math.min(state.anchor, cursor), nextChar(text, Math.max(state.anchor, cursor))]
          : [cursor, charsForward(text, cursor, n, lineEnd(text, cursor))]
      const swapped = [...text.slice(start, end)]
        .map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()))
        .join('')
      const buffer = text.slice(0, start) + swapped + text.slice(end)
      return {...state, buffer, cursor: clampNormal(buffer, state.mode === 'visual' ? start : end), mode: 'normal'}
    }

    case 'r': {
      const end = charsForward(text, cursor, n)
      if (
        command.arg === undefined ||
        [...command.arg].length !== 1 ||
        [...text.slice(cursor, end)].length < n ||
        end > lineEnd(text, cursor)
      )
        return state
      const buffer = text.slice(0, cursor) + command.arg.repeat(n) + text.slice(end)
      return {...state, buffer, cursor: cursor + command.arg.length * (n - 1)}
    }

    case 'select-inner':
    case 'select-around': {
      const object = textObject(text, cursor, command.action === 'select-around', command.arg ?? '')
      return object && object.end > object.start ? {...state, anchor: object.start, cursor: object.end - 1} : state
    }

    default:
      return state
  }
}

/** `p` puts after the cursor (below the line for lines), `P` before (above). */
function put(state: VimState, after: boolean, register: string | undefined, count: number): VimState {
  const reg = readRegister(state, register)
  if (!reg || reg.text === '') return state
  const text = state.buffer
  const {cursor} = state
  if (state.mode === 'visual') {
    const start = Math.min(state.anchor, cursor)
    const end = nextChar(text, Math.max(state.anchor, cursor))
    const inserted = reg.text.repeat(count)
    const buffer = text.slice(0, start) + inserted + text.slice(end)
    // The replaced text goes to the unnamed register, as in vim.
    const next = writeRegister(state, undefined, {linewise: false, text: text.slice(start, end)}, false)
    return {...next, buffer, cursor: clampNormal(buffer, prevChar(buffer, start + inserted.length)), mode: 'normal'}
  }

  if (reg.linewise) {
    const lines = reg.text.endsWith('\n') ? reg.text.slice(0, -1) : reg.text
    const block = Array.from({length: count}, () => lines).join('\n')
    if (after) {
      const at = lineEnd(text, cursor)
      const buffer = text.slice(0, at) + '\n' + block + text.slice(at)
      return {...state, buffer, cursor: firstNonBlank(buffer, at + 1)}
    }

    const at = lineStart(text, cursor)
    const buffer = text.slice(0, at) + block + '\n' + text.slice(at)
    return {...state, buffer, cursor: firstNonBlank(buffer, at)}
  }

  const inserted = reg.text.repeat(count)
  const at = after && lineStart(text, cursor) !== lineEnd(text, cursor) ? nextChar(text, cursor) : cursor
  const buffer = text.slice(0, at) + inserted + text.slice(at)
  return {...state, buffer, cursor: clampNormal(buffer, prevChar(buffer, at + inserted.length))}
}

/** `J`: the next line joins this one with one space (none before `)` or for an empty line). */
function join(state: VimState, lines: number): VimState {
  let text = state.buffer
  let cursor = state.cursor
  for (let k = 1; k < lines; k++) {
    const nl = lineEnd(text, cursor)
    if (nl >= text.length) break
    let next = nl + 1
    while (text[next] === ' ' || text[next] === '\t') next++
    let before = nl
    while (before > lineStart(text, nl) && (text[before - 1] === ' ' || text[before - 1] === '\t')) before--
    const sep =
      next >= text.length || text[next] === '\n' || text[next] === ')' || before === lineStart(text, nl) ? '' : ' '
    text = text.slice(0, before) + sep + text.slice(next)
    cursor = before
  }

  return {...state, buffer: text, cursor: clampNormal(text, cursor)}
}
