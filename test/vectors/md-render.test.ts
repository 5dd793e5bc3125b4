import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {MdRenderer, type StyledSpan} from '../../src/core/markdown/index.js'
import {REPO_ROOT} from '../helpers/cli.js'

interface Vector {
  name: string
  description: string
  chunks: string[]
  expect: {spans: StyledSpan[]}
}

const {cases} = JSON.parse(readFileSync(join(REPO_ROOT, 'test-vectors', 'md-render.json'), 'utf8')) as {cases: Vector[]}

function render(chunks: readonly string[]): StyledSpan[] {
  const renderer = new MdRenderer()
  return [...chunks.flatMap((chunk) => renderer.renderChunk(chunk)), ...renderer.flush()]
}

/** A seeded generator, so a failing split can be replayed. */
function splits(text: string, seed: number): string[] {
  let state = seed
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
    return state / 2_147_483_648
  }

  const out: string[] = []
  let at = 0
  while (at < text.length) {
    const size = Math.floor(next() * 5)
    out.push(text.slice(at, at + size))
    at += size
  }

  return out
}

describe('md-render vectors (HIP-301 §15)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, vector) => {
    const whole = vector.chunks.join('')
    expect(render(vector.chunks)).toEqual(vector.expect.spans)
    // Any chunking gives the same spans: whole, one character at a time, random splits.
    expect(render([whole])).toEqual(vector.expect.spans)
    expect(render([...whole])).toEqual(vector.expect.spans)
    for (const seed of [1, 2, 3]) expect(render(splits(whole, seed))).toEqual(vector.expect.spans)
  })

  it('has the cases the format asks for', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40)
  })
})
