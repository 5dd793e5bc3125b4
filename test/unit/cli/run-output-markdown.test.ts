import {Chalk} from 'chalk'
import {Writable} from 'node:stream'
import {describe, expect, it} from 'vitest'

import {RunOutput} from '../../../src/cli/run-output.js'
import {ReplyPrinter} from '../../../src/cli/reply-printer.js'

function sink(): {stream: Writable; text: () => string} {
  let text = ''
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk)
      done()
    },
  })
  return {stream, text: () => text}
}

const plain = new Chalk({level: 0})
const summary = {model: 'm', sessionId: 's'}
/** A call starting, as the core reports it: it ends the text before it. */
const LISTING = {
  item: {id: '1', input: {}, kind: 'read', name: 'fs_list', status: 'running', title: '', type: 'tool_call'},
  type: 'item_started',
} as const

function output(markdown: boolean, options: {terminal?: boolean} = {}) {
  const stdout = sink()
  if (options.terminal) Object.assign(stdout.stream, {isTTY: true})
  const stderr = sink()
  const run = new RunOutput(
    'text',
    {
      markdown: markdown ? new ReplyPrinter(plain) : undefined,
      stderr: stderr.stream,
      stdout: stdout.stream,
      style: plain,
    },
    summary,
  )
  return {run, stderr, stdout}
}

describe('RunOutput with markdown (stdout a terminal)', () => {
  it('writes rendered lines as they complete and the held rest before a tool call', () => {
    const {run, stdout} = output(true)
    run.event({text: '# Hi\nsome **bo', type: 'text_delta'})
    expect(stdout.text()).toBe('Hi\n')
    run.event({text: 'ld** text', type: 'text_delta'})
    expect(stdout.text()).toBe('Hi\n')
    run.event(LISTING)
    expect(stdout.text()).toBe('Hi\nsome bold text\n')
  })

  it('without it writes the text as sent', () => {
    const {run, stdout} = output(false)
    run.event({text: '# Hi\nsome **bo', type: 'text_delta'})
    expect(stdout.text()).toBe('# Hi\nsome **bo')
    run.event(LISTING)
    expect(stdout.text()).toBe('# Hi\nsome **bo\n')
  })

  it('without it, on a terminal (the agent commands), shows the escape sequences it is sent; a CRLF split across two pieces is one line end', () => {
    const {run, stdout} = output(false, {terminal: true})
    run.event({text: 'a\u001B]52;c;cHduZWQ=\u0007b\r', type: 'text_delta'})
    run.event({text: '\nc\u202E', type: 'text_delta'})
    run.event(LISTING)
    expect(stdout.text()).toBe('a^[]52;c;cHduZWQ=^Gb\nc<U+202E>\n')
  })
})
