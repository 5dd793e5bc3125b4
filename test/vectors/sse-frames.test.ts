import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {ProtocolError, type SseFrame, SseFrameBuffer} from '../../src/core/protocol/index.js'
import {chunkings} from '../helpers/chunking.js'
import {REPO_ROOT} from '../helpers/cli.js'
import {thrownBy} from '../helpers/thrown.js'

interface Vector {
  name: string
  description: string
  input?: string
  hex?: string
  chunks?: string[]
  options?: {maxBufferSize?: number}
  expect: {frames?: SseFrame[]; lastEventId?: string | null; retry?: number | null; error?: string}
}

const {cases} = JSON.parse(readFileSync(join(REPO_ROOT, 'test-vectors', 'sse-frames.json'), 'utf8')) as {
  cases: Vector[]
}

function run(vector: Vector, chunks: Array<string | Uint8Array>) {
  const buffer = new SseFrameBuffer(vector.options)
  const frames = chunks.flatMap((chunk) => buffer.feed(chunk))
  frames.push(...buffer.end())
  return {frames, lastEventId: buffer.lastEventId, retry: buffer.retry}
}

/** Every way the case is fed: as text (when it is text) and as UTF-8 bytes, each chunked several ways. */
function feedings(vector: Vector): Array<{how: string; chunks: Array<string | Uint8Array>}> {
  const bytes = vector.hex === undefined ? new TextEncoder().encode(vector.input) : Buffer.from(vector.hex, 'hex')
  const asBytes = chunkings(new Uint8Array(bytes)).map(({chunks, how}) => ({chunks, how: `bytes, ${how}`}))
  if (vector.input === undefined) return asBytes
  const given = vector.chunks ? [{chunks: vector.chunks, how: 'the given chunks'}] : []
  return [...given, ...chunkings(vector.input), ...asBytes]
}

describe('sse-frames vectors (HIP-301 §3, WHATWG event stream parsing)', () => {
  it('has at least 60 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60)
  })

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, vector) => {
    expect(vector.input === undefined ? vector.hex : vector.input, 'input or hex').toBeDefined()
    if (vector.chunks) expect(vector.chunks.join('')).toBe(vector.input)
    for (const {how, chunks} of feedings(vector)) {
      if (vector.expect.error) {
        const error = thrownBy(() => run(vector, chunks))
        expect(error, how).toBeInstanceOf(ProtocolError)
        expect((error as ProtocolError).code, how).toBe(vector.expect.error)
        continue
      }

      const result = run(vector, chunks)
      expect(result.frames, how).toEqual(vector.expect.frames)
      if ('lastEventId' in vector.expect) expect(result.lastEventId, how).toBe(vector.expect.lastEventId)
      if ('retry' in vector.expect) expect(result.retry, how).toBe(vector.expect.retry)
    }
  })
})
