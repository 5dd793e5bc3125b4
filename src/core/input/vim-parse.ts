// The grammar of a Normal- or Visual-mode command: ["x] [count] (motion | action | operator
// [count] (motion | text object | the operator again)). Keys arrive one at a time; the machine keeps
// the unfinished ones as its pending sequence and asks this parser after each key.
import {CHAR_MOTIONS, MOTION_KEYS, TEXT_OBJECT_KEYS} from './vim-motions.js'

export type Operator = 'd' | 'c' | 'y'

export type OperatorTarget =
  | {kind: 'motion'; motion: string; arg?: string}
  | {kind: 'object'; key: string; around: boolean}
  /** `dd`, `cc`, `yy`: whole lines. */
  | {kind: 'line'}

export type VimCommand =
  | {kind: 'motion'; motion: string; arg?: string; count?: number}
  | {kind: 'operator'; op: Operator; target: OperatorTarget; count?: number; register?: string}
  | {kind: 'action'; action: string; arg?: string; count?: number; register?: string}

export type ParseResult = {status: 'incomplete'} | {status: 'invalid'} | {status: 'complete'; command: VimCommand}

/** Keys that mean a motion on their own in every mode. */
const ALIASES: Record<string, string> = {
  '<Down>': 'j',
  '<End>': '$',
  '<Home>': '0',
  '<Left>': 'h',
  '<Right>': 'l',
  '<Up>': 'k',
  '<BS>': 'h',
  ' ': 'l',
}
/** Shorthands for an operator with a motion. */
const SHORTHANDS: Record<string, [Operator, string]> = {
  C: ['c', '$'],
  D: ['d', '$'],
  X: ['d', 'h'],
  s: ['c', 'l'],
  x: ['d', 'l'],
  '<Del>': ['d', 'l'],
}
const NORMAL_ACTIONS = new Set([
  'p',
  'P',
  'u',
  '<C-r>',
  '.',
  'i',
  'a',
  'I',
  'A',
  'o',
  'O',
  'v',
  ':',
  'J',
  '~',
  '<CR>',
  'Y',
  'S',
])
const VISUAL_ACTIONS = new Set(['o', 'v', '<Esc>', '~', 'J', 'p', 'P'])
const INCOMPLETE = {status: 'incomplete'} as const
const INVALID = {status: 'invalid'} as const

export function parseCommand(keys: readonly string[], visual: boolean): ParseResult {
  let i = 0
  let register: string | undefined
  if (keys[0] === '"') {
    if (keys.length < 2) return INCOMPLETE
    register = keys[1]
    i = 2
  }

  const first = readCount(keys, i)
  i = first.next
  if (i >= keys.length) return INCOMPLETE
  const key = ALIASES[keys[i]] ?? keys[i]
  const count = first.count

  if (
    key === 'd' ||
    key === 'c' ||
    key === 'y' ||
    (visual && (key === 'x' || key === 's' || key === 'X' || key === 'D' || key === 'C' || key === 'Y' || key === 'S'))
  ) {
    const op: Operator =
      key === 'y' || key === 'Y' ? 'y' : key === 'c' || key === 's' || key === 'C' || key === 'S' ? 'c' : 'd'
    // In Visual mode an operator applies to the selection at once; capitals make it linewise.
    if (visual)
      return complete({
        count,
        kind: 'operator',
        op,
        register,
        target: key === key.toUpperCase() ? {kind: 'line'} : {kind: 'object', around: true, key: 'selection'},
      })
    const second = readCount(keys, i + 1)
    const j = second.next
    if (j >= keys.length) return INCOMPLETE
    const total = count === undefined && second.count === undefined ? undefined : (count ?? 1) * (second.count ?? 1)
    if (keys[j] === key)
      return j === keys.length - 1
        ? complete({count: total, kind: 'operator', op, register, target: {kind: 'line'}})
        : INVALID
    if (keys[j] === 'i' || keys[j] === 'a') {
      if (j + 1 >= keys.length) return INCOMPLETE
      return TEXT_OBJECT_KEYS.has(keys[j + 1]) && j + 2 === keys.length
        ? complete({
            count: total,
            kind: 'operator',
            op,
            register,
            target: {around: keys[j] === 'a', key: keys[j + 1], kind: 'object'},
          })
        : INVALID
    }

    const motion = readMotion(keys, j)
    if (motion.status !== 'complete') return motion
    return complete({
      count: total,
      kind: 'operator',
      op,
      register,
      target: {arg: motion.arg, kind: 'motion', motion: motion.motion},
    })
  }

  if (!visual && SHORTHANDS[key] && i === keys.length - 1) {
    const [op, motion] = SHORTHANDS[key]
    return complete({count, kind: 'operator', op, register, target: {kind: 'motion', motion}})
  }

  if (key === 'r' && !visual) {
    if (i + 1 >= keys.length) return INCOMPLETE
    return i + 2 === keys.length ? complete({arg: keys[i + 1], count, kind: 'action', action: 'r'}) : INVALID
  }

  if (visual && (key === 'i' || key === 'a')) {
    if (i + 1 >= keys.length) return INCOMPLETE
    return TEXT_OBJECT_KEYS.has(keys[i + 1]) && i + 2 === keys.length
      ? complete({arg: keys[i + 1], count, kind: 'action', action: key === 'a' ? 'select-around' : 'select-inner'})
      : INVALID
  }

  if ((visual ? VISUAL_ACTIONS : NORMAL_ACTIONS).has(key))
    return i === keys.length - 1 ? complete({count, kind: 'action', action: key, register}) : INVALID
  const motion = readMotion(keys, i)
  if (motion.status !== 'complete') return motion
  return complete({arg: motion.arg, count, kind: 'motion', motion: motion.motion})
}

function complete(command: VimCommand): ParseResult {
  return {command, status: 'complete'}
}

function readCount(keys: readonly string[], from: number): {count?: number; next: number} {
  let i = from
  let digits = ''
  // A leading 0 is the motion to the line's start, not a count.
  while (i < keys.length && /^[0-9]$/.test(keys[i]) && (digits !== '' || keys[i] !== '0')) digits += keys[i++]
  return {count: digits === '' ? undefined : Math.min(Number(digits), 99_999), next: i}
}

function readMotion(
  keys: readonly string[],
  i: number,
): {status: 'complete'; motion: string; arg?: string} | {status: 'incomplete'} | {status: 'invalid'} {
  const key = ALIASES[keys[i]] ?? keys[i]
  if (key === 'g') {
    if (i + 1 >= keys.length) return INCOMPLETE
    return keys[i + 1] === 'g' && i + 2 === keys.length ? {motion: 'gg', status: 'complete'} : INVALID
  }

  if (CHAR_MOTIONS.has(key)) {
    if (i + 1 >= keys.length) return INCOMPLETE
    // A special key (<Esc>) cancels a pending f/t.
    return i + 2 === keys.length && [...keys[i + 1]].length === 1
      ? {arg: keys[i + 1], motion: key, status: 'complete'}
      : INVALID
  }

  return MOTION_KEYS.has(key) && i === keys.length - 1 ? {motion: key, status: 'complete'} : INVALID
}
