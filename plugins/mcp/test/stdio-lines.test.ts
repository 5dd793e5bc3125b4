import {describe, expect, it} from 'vitest'

import {MAX_LINE_BYTES, StdioLineReader} from '../src/stdio-lines.js'

function reader() {
  const messages: unknown[] = []
  const errors: string[] = []
  const lines = new StdioLineReader({
    error: (error) => errors.push(error.message),
    message: (message) => messages.push(message),
  })
  return {errors, lines, messages}
}

const MESSAGES = [
  {id: 1, jsonrpc: '2.0', result: {content: [{text: 'héllo 🎉', type: 'text'}]}},
  {jsonrpc: '2.0', method: 'notifications/tools/list_changed'},
  {id: 'a', jsonrpc: '2.0', method: 'ping'},
]
const WIRE = Buffer.from(MESSAGES.map((m) => `${JSON.stringify(m)}\n`).join(''))

describe('StdioLineReader', () => {
  it('gives the same messages however the bytes are cut, multi-byte characters split included', () => {
    for (const size of [1, 2, 3, 7, 64, WIRE.length]) {
      const {errors, lines, messages} = reader()
      for (let i = 0; i < WIRE.length; i += size) lines.push(WIRE.subarray(i, i + size))
      expect(messages, `chunks of ${size}`).toEqual(MESSAGES)
      expect(errors).toEqual([])
    }
  })

  it('takes CRLF line ends and skips blank lines', () => {
    const {lines, messages} = reader()
    lines.push(Buffer.from(`\r\n${JSON.stringify(MESSAGES[1])}\r\n\n`))
    expect(messages).toEqual([MESSAGES[1]])
  })

  it('reports a line that is not JSON, or not JSON-RPC 2.0, and goes on with the next', () => {
    const {errors, lines, messages} = reader()
    lines.push(Buffer.from(`server starting...\n[1,2]\n{"jsonrpc":"1.0","id":1}\n${JSON.stringify(MESSAGES[2])}\n`))
    expect(errors).toEqual([
      'the server wrote a line that is not JSON: server starting...',
      'the server wrote a line that is not a JSON-RPC 2.0 message: [1,2]',
      'the server wrote a line that is not a JSON-RPC 2.0 message: {"jsonrpc":"1.0","id":1}',
    ])
    expect(messages).toEqual([MESSAGES[2]])
  })

  it('drops a line that never ends past the limit, and reads what follows its end', () => {
    const {errors, lines, messages} = reader()
    const piece = Buffer.alloc(1024 * 1024, 'x')
    for (let sent = 0; sent <= MAX_LINE_BYTES; sent += piece.length) lines.push(piece)
    expect(errors).toEqual([
      `the server sent a line of over ${MAX_LINE_BYTES} bytes without a line end; it was dropped`,
    ])
    lines.push(Buffer.from(`xx\n${JSON.stringify(MESSAGES[1])}\n`))
    expect(messages).toEqual([MESSAGES[1]])
  })

  it('joins a 4 MB message sent in 64-byte chunks once, at its line end', () => {
    const {lines, messages} = reader()
    const big = Buffer.from(`${JSON.stringify({id: 9, jsonrpc: '2.0', result: {text: 'y'.repeat(4 * 1024 * 1024)}})}\n`)
    for (let i = 0; i < big.length; i += 64) lines.push(big.subarray(i, i + 64))
    expect(messages).toHaveLength(1)
  })
})
