import {Chalk} from 'chalk'
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'

import {ReplyPrinter} from '../../../src/cli/reply-printer.js'
import {liveOutput} from '../../../src/cli/run-live.js'
import {RunOutput} from '../../../src/cli/run-output.js'
import {Screen} from '../../helpers/screen.js'

const plain = new Chalk({level: 0})

/**
 * stdout and stderr of one terminal, `width` columns wide: what both write is played on one
 * screen, each newline a CR LF as the terminal driver makes it (onlcr).
 */
function terminal(width: number) {
  const screen = new Screen(width)
  const write = (text: string) => screen.write(text.replaceAll(/\r?\n/g, '\r\n'))
  const stream = () => ({columns: width, isTTY: true, rows: 20, write}) as unknown as NodeJS.WriteStream
  return {screen, stderr: stream(), stdout: stream()}
}

function run(width: number) {
  const {screen, stderr, stdout} = terminal(width)
  const live = liveOutput(stdout, stderr, plain, {answer: true})!
  const output = new RunOutput(
    'text',
    {live, markdown: new ReplyPrinter(plain, undefined, () => width), stderr, stdout, style: plain},
    {model: 'm', sessionId: 's'},
  )
  return {output, screen, stderr}
}

const TOOL_CALL = {
  item: {id: '1', input: {}, kind: 'read', name: 'fs_list', status: 'running', title: '', type: 'tool_call'},
  type: 'item_started',
} as const

describe('run on a terminal: the live line', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('counts the seconds while the model is awaited, then shows the line being written before it ends', () => {
    const {output, screen} = run(40)
    output.event({turn: 1, type: 'turn_start'})
    expect(screen.lines).toEqual(['⠋ Thinking… 0s (Ctrl-C to cancel)'])
    vi.advanceTimersByTime(12_000)
    expect(screen.lines[0]).toMatch(/^\S Thinking… 12s \(Ctrl-C to cancel\)$/)
    output.event({text: 'A **long** line, longer than the forty columns of', type: 'text_delta'})
    // As sent so far (its markers too), wrapped at the width; the spinner is gone.
    expect(screen.lines).toEqual(['A **long** line, longer than the forty c', 'olumns of'])
    output.event({text: ' this terminal.\nNext', type: 'text_delta'})
    // The finished line replaces it, rendered; the terminal wraps it as it would any line written.
    expect(screen.lines).toEqual(['A long line, longer than the forty colum', 'ns of this terminal.', 'Next'])
    output.event(TOOL_CALL)
    expect(screen.lines).toEqual([
      'A long line, longer than the forty colum',
      'ns of this terminal.',
      'Next',
      '⏺ fs_list',
    ])
    output.close()
  })

  it('puts what anything else writes to stderr during the turn above the live line, which stays whole', () => {
    const {output, screen, stderr} = run(40)
    output.event({turn: 1, type: 'turn_start'})
    stderr.write('Warning: lsp: gopls not found on PATH\n')
    expect(screen.lines).toEqual(['Warning: lsp: gopls not found on PATH', '⠋ Thinking… 0s (Ctrl-C to cancel)'])
    output.event({text: 'Half a line', type: 'text_delta'})
    stderr.write(Buffer.from('Warning: again\n'))
    expect(screen.lines).toEqual(['Warning: lsp: gopls not found on PATH', 'Warning: again', 'Half a line'])
    output.event({text: ' and the rest.\n', type: 'text_delta'})
    output.close()
    expect(screen.lines).toEqual([
      'Warning: lsp: gopls not found on PATH',
      'Warning: again',
      'Half a line and the rest.',
    ])
    expect(screen.cursorVisible).toBe(true)
    // The run is over: stderr is the terminal's again, written where the cursor is.
    stderr.write('after\n')
    expect(screen.lines.at(-1)).toBe('after')
  })

  it('is not made where nothing can be redrawn: off a terminal, or on one without width', () => {
    const {stderr, stdout} = terminal(40)
    const pipe = {write: () => true} as unknown as NodeJS.WriteStream
    expect(liveOutput(pipe, pipe, plain, {answer: true})).toBeUndefined()
    Object.assign(stdout, {columns: 0})
    Object.assign(stderr, {columns: 0})
    expect(liveOutput(stdout, stderr, plain, {answer: true})).toBeUndefined()
  })
})
