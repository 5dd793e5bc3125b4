import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {ProtocolError, type SseFrame, SseFrameBuffer} from '../../../src/core/protocol/index.js'
import {splitAt} from '../../helpers/chunking.js'
import {thrownBy} from '../../helpers/thrown.js'

/** The WHATWG rules written the obvious, non-streaming way: the oracle the buffer must match. */
function reference(stream: string): SseFrame[] {
  const frames: SseFrame[] = []
  let data: string[] = []
  let event = ''
  let id = ''
  let retry: number | null = null
  const lines = stream.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)
  lines.pop() // an unterminated last line is discarded
  for (const line of lines) {
    if (line === '') {
      if (data.length > 0) frames.push({data: data.join('\n'), event: event || null, id: id || null, retry})
      data = []
      event = ''
      retry = null
      continue
    }

    const colon = line.indexOf(':')
    const name = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (name === 'data') data.push(value)
    else if (name === 'event') event = value
    else if (name === 'id' && !value.includes('\0')) id = value
    else if (name === 'retry' && /^\d+$/.test(value)) retry = Number(value)
  }

  return frames
}

const value = fc.stringMatching(/^[a-z: é😀\0\uFEFF1-9]{0,6}$/u)
const line = fc.oneof(
  fc.constant(''),
  value.map((v) => `data:${v}`),
  value.map((v) => `data: ${v}`),
  fc.constant('data'),
  value.map((v) => `event: ${v}`),
  value.map((v) => `id: ${v}`),
  fc.stringMatching(/^[0-9x]{0,4}$/).map((v) => `retry: ${v}`),
  value.map((v) => `:${v}`),
  value.map((v) => `${v}: ${v}`),
)
const stream = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(line, fc.constantFrom('\n', '\r', '\r\n')), {maxLength: 30}), line)
  .map(([bom, lines, tail]) => (bom ? '\uFEFF' : '') + lines.map(([l, end]) => l + end).join('') + tail)
const cuts = fc.array(fc.nat(), {maxLength: 12})

function feedAll(chunks: Array<string | Uint8Array>): SseFrame[] {
  const buffer = new SseFrameBuffer()
  return [...chunks.flatMap((c) => buffer.feed(c)), ...buffer.end()]
}

describe('SseFrameBuffer', () => {
  it('gives the same frames as the reference, whatever the chunking, as text and as bytes', () => {
    fc.assert(
      fc.property(stream, cuts, (text, at) => {
        const expected = reference(text)
        expect(feedAll([text])).toEqual(expected)
        const scale = (n: number, length: number) => (length === 0 ? 0 : n % (length + 1))
        expect(
          feedAll(
            splitAt(
              text,
              at.map((n) => scale(n, text.length)),
            ),
          ),
        ).toEqual(expected)
        const bytes = new TextEncoder().encode(text)
        expect(
          feedAll(
            splitAt(
              bytes,
              at.map((n) => scale(n, bytes.length)),
            ),
          ),
        ).toEqual(expected)
      }),
      {numRuns: 500},
    )
  })

  it('ends lines at a blank line right after a line end in a long chunk, LF, CR and CRLF alike', () => {
    // A chunk over 16 characters takes the indexOf path, where a blank line after a line end is not searched for.
    const text = 'data: first line\n\ndata: 2\r\n\r\ndata: 3\r\rdata: 4\n\r\n: c\n\n\n\ndata: 5\n\n'
    const expected = reference(text)
    expect(expected.map((f) => f.data)).toEqual(['first line', '2', '3', '4', '5'])
    expect(feedAll([text])).toEqual(expected)
    const buffer = new SseFrameBuffer()
    const first = buffer.feed(text)
    const second = buffer.feed('data: 6\n\n')
    expect([first.length, second, buffer.feed('data: 7')]).toEqual([
      5,
      [{data: '6', event: null, id: null, retry: null}],
      [],
    ])
  })

  it('keeps the last event id across end(), as EventSource does across reconnections; reset() forgets it', () => {
    const buffer = new SseFrameBuffer()
    buffer.feed('id: 7\nretry: 250\ndata: a\n\n')
    buffer.end()
    expect(buffer.feed('data: b\n\n')).toEqual([{data: 'b', event: null, id: '7', retry: null}])
    expect([buffer.lastEventId, buffer.retry]).toEqual(['7', 250])
    buffer.reset()
    expect([buffer.lastEventId, buffer.retry]).toEqual([null, null])
  })

  it('flushes half-decoded bytes as U+FFFD when a string chunk follows them', () => {
    const buffer = new SseFrameBuffer()
    buffer.feed(new Uint8Array([0x64, 0x61, 0x74, 0x61, 0x3a, 0xe2, 0x82]))
    expect(buffer.feed('\n\n')).toEqual([{data: '\uFFFD', event: null, id: null, retry: null}])
  })

  it('strips the BOM only at the start of a stream, and again after end()', () => {
    const buffer = new SseFrameBuffer()
    expect(buffer.feed('\uFEFFdata: a\n\n\uFEFFdata: b\n\n')).toEqual([{data: 'a', event: null, id: null, retry: null}])
    buffer.end()
    expect(buffer.feed(new Uint8Array([0xef, 0xbb, 0xbf, 0x64, 0x61, 0x74, 0x61, 0x3a, 0x63, 0x0a, 0x0a]))).toEqual([
      {data: 'c', event: null, id: null, retry: null},
    ])
  })

  it('stops with a clear error past maxBufferSize, stays stopped, and works again after reset()', () => {
    const buffer = new SseFrameBuffer({maxBufferSize: 100})
    const error = thrownBy(() => buffer.feed(`data: ${'x'.repeat(200)}`))
    expect(error).toBeInstanceOf(ProtocolError)
    expect((error as ProtocolError).code).toBe('sse_buffer_overflow')
    expect((error as Error).message).toMatch(/buffer limit of 100 characters/)
    expect(thrownBy(() => buffer.feed('\n\n'))).toBeInstanceOf(ProtocolError)
    buffer.reset()
    expect(buffer.feed('data: ok\n\n')).toEqual([{data: 'ok', event: null, id: null, retry: null}])
  })

  it('holds no memory for a comment line, however long', () => {
    const buffer = new SseFrameBuffer({maxBufferSize: 10})
    for (let i = 0; i < 1000; i++) buffer.feed(i === 0 ? ': keep-alive' : 'x'.repeat(100))
    expect(buffer.feed('\ndata: y\n\n')).toEqual([{data: 'y', event: null, id: null, retry: null}])
  })

  it('refuses a maxBufferSize that is not a positive integer', () => {
    expect(() => new SseFrameBuffer({maxBufferSize: 0})).toThrow(RangeError)
    expect(() => new SseFrameBuffer({maxBufferSize: Number.NaN})).toThrow(RangeError)
  })
})
