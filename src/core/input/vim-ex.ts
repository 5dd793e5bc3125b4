// Command mode (`:`): the line after the colon, and the Ex commands a prompt editor needs —
// `:w` submits, `:q` exits, `:set` reads and changes the widget's options, `:N` goes to line N.
import {clampNormal, firstNonBlank, lineAt} from './text.js'
import type {VimOptions, VimResult, VimState} from './vim-state.js'

export function commandKey(state: VimState, key: string): VimResult {
  if (key === '<Esc>' || key === '<C-c>') return {state: leave(state)}
  if (key === '<BS>')
    return {state: state.commandLine === '' ? leave(state) : {...state, commandLine: state.commandLine.slice(0, -1)}}
  if (key === '<CR>') return runEx(leave(state), state.commandLine.trim())
  if (key.length > 1 && key.startsWith('<')) return {state}
  return {state: {...state, commandLine: state.commandLine + key}}
}

function leave(state: VimState): VimState {
  return {...state, commandLine: '', cursor: clampNormal(state.buffer, state.cursor), mode: 'normal'}
}

function runEx(state: VimState, line: string): VimResult {
  if (line === '') return {state}
  if (/^\d+$/.test(line))
    return {
      state: {
        ...state,
        cursor: clampNormal(
          state.buffer,
          firstNonBlank(state.buffer, lineAt(state.buffer, Math.max(0, Number(line) - 1))),
        ),
      },
    }
  const [name, ...args] = line.split(/\s+/)
  switch (name) {
    case 'w':
    case 'write':
      return {effect: {kind: 'submit', text: state.buffer}, state}
    case 'q':
    case 'quit':
    case 'q!':
    case 'quit!':
      return {effect: {force: name.endsWith('!'), kind: 'exit'}, state}
    case 'se':
    case 'set':
      return setOptions(state, args)
    default:
      return {effect: {kind: 'error', message: `E492: Not an editor command: ${line}`}, state}
  }
}

type OptionName = keyof VimOptions

function isOption(state: VimState, name: string): name is OptionName {
  return Object.hasOwn(state.options, name)
}

function show(state: VimState, name: OptionName): string {
  const value = state.options[name]
  return typeof value === 'boolean' ? (value ? name : `no${name}`) : `${name}=${value}`
}

/** `:set`, `:set name`, `:set noname`, `:set name!`, `:set name?`, `:set name=N`, several at once. */
function setOptions(state: VimState, args: string[]): VimResult {
  const names = Object.keys(state.options) as OptionName[]
  if (args.length === 0) return {effect: {kind: 'message', message: names.map((n) => show(state, n)).join('  ')}, state}
  let options = {...state.options}
  const shown: string[] = []
  for (const arg of args) {
    const m = /^(no)?([a-z]+)(=(.*)|!|\?)?$/.exec(arg)
    const name =
      m?.[2] === undefined
        ? arg
        : isOption(state, m[2])
          ? m[2]
          : m[1] && isOption(state, m[1] + m[2])
            ? m[1] + m[2]
            : undefined
    if (!m || name === undefined || !isOption(state, name))
      return {effect: {kind: 'error', message: `E518: Unknown option: ${arg}`}, state}
    const no = m[1] !== undefined && name === m[2]
    const current = options[name]
    if (m[3] === '?') {
      shown.push(show({...state, options}, name))
    } else if (typeof current === 'boolean') {
      if (m[4] !== undefined) return {effect: {kind: 'error', message: `E474: Invalid argument: ${arg}`}, state}
      options = {...options, [name]: m[3] === '!' ? !current : !no}
    } else if (m[4] === undefined) {
      shown.push(show({...state, options}, name))
    } else {
      if (no || !/^\d+$/.test(m[4]))
        return {effect: {kind: 'error', message: `E521: Number required after =: ${arg}`}, state}
      options = {...options, [name]: Number(m[4])}
    }
  }

  const next = {...state, options}
  return shown.length > 0 ? {effect: {kind: 'message', message: shown.join('  ')}, state: next} : {state: next}
}
