import {describe, expect, it} from 'vitest'

import {HeadTailBuffer} from '../../../src/adapters/tools/head-tail-buffer.js'

describe('HeadTailBuffer', () => {
  it('keeps everything while it fits', () => {
    const buffer = new HeadTailBuffer(4, 4)
    for (const chunk of ['ab', 'cdé', 'f']) buffer.push(Buffer.from(chunk))
    expect(buffer.droppedBytes).toBe(0)
    expect(buffer.toString()).toBe('abcdéf')
  })

  it('keeps the first and last bytes, whatever the chunking, and counts the middle', () => {
    const text = 'HEAD' + 'x'.repeat(1000) + 'TAIL'
    for (const size of [1, 3, 7, 100, text.length]) {
      const buffer = new HeadTailBuffer(4, 4)
      for (let at = 0; at < text.length; at += size) buffer.push(Buffer.from(text.slice(at, at + size)))
      expect(buffer.droppedBytes, `chunks of ${size}`).toBe(1000)
      expect(buffer.toString()).toBe('HEAD\n[… 1000 bytes cut from the middle …]\nTAIL')
    }
  })
})
