import {Chalk} from 'chalk'
import {describe, expect, it} from 'vitest'

import {paintSpans} from '../../../src/adapters/markdown-paint.js'
import {MdRenderer, type StyledSpan} from '../../../src/core/markdown/index.js'

function render(chunks: Iterable<string>): StyledSpan[] {
  const renderer = new MdRenderer()
  const out: StyledSpan[] = []
  // A loop, not push(...spans): a 1 MB chunk gives more spans than a call takes arguments.
  const add = (spans: StyledSpan[]) => {
    for (const span of spans) out.push(span)
  }

  for (const chunk of chunks) add(renderer.renderChunk(chunk))
  add(renderer.flush())
  return out
}

function randomChunks(text: string, seed: number, max: number): string[] {
  let state = seed
  const out: string[] = []
  let at = 0
  while (at < text.length) {
    state = (state * 48_271) % 2_147_483_647
    const size = state % (max + 1)
    out.push(text.slice(at, at + size))
    at += size
  }

  return out
}

const DOCUMENTS = [
  '# Plan\n\nFirst **read** the *code*, then `npm test`.\n\n1. one\n   - nested [link](https://x.dev)\n2. two\n\n> note: ~~old~~ new\n\n---\n',
  '```ts\nexport function f(a: string): number {\n  return a.length // why\n}\n```\n\n| name | size |\n|:-----|-----:|\n| a.ts | 10 |\n| bb.ts | 200 |\n\nDone.',
  'CRLF\r\n**bold**\r\n```py\r\nprint("x")\r\n```\r\n|a|b|\r\n|-|-|\r\n|1|2|\r\n',
  '```\nunclosed *fence*\nstill code',
  'text | with | pipes\nand **unclosed bold\n_a_ __b__ ***c***\n',
]

describe('MdRenderer', () => {
  it.each(DOCUMENTS.map((d, i) => [i, d] as const))(
    'gives the same spans for any chunking (document %i)',
    (_i, doc) => {
      const whole = render([doc])
      for (let seed = 1; seed <= 40; seed++) expect(render(randomChunks(doc, seed, 1 + (seed % 9)))).toEqual(whole)
      expect(render([...doc])).toEqual(whole)
    },
  )

  it('writes a line as soon as it is complete, and holds the partial one', () => {
    const renderer = new MdRenderer()
    expect(renderer.renderChunk('Hello **wor')).toEqual([])
    expect(renderer.renderChunk('ld**\nnext')).toEqual([
      {text: 'Hello '},
      {style: {bold: true}, text: 'world'},
      {text: '\n'},
    ])
    expect(renderer.flush()).toEqual([{text: 'next'}, {text: '\n'}])
    // flush() leaves a fresh renderer: the next message starts outside any block.
    expect(renderer.renderChunk('```\n')).toEqual([])
    expect(renderer.flush()).toEqual([])
    expect(renderer.renderChunk('# h\n')).toEqual([{style: {bold: true, heading: 1}, text: 'h'}, {text: '\n'}])
  })

  it('holds a fence until it closes', () => {
    const renderer = new MdRenderer()
    expect(renderer.renderChunk('```js\nlet a = 1\n')).toEqual([])
    const spans = renderer.renderChunk('```\n')
    expect(spans.map((s) => s.text).join('')).toBe('let a = 1\n')
    expect(spans.find((s) => s.text === 'let')?.style).toEqual({code: true, color: 'magenta', fence: true})
  })

  it('is linear: a 1 MB document fed one character at a time equals the one-chunk result', () => {
    const block = `${DOCUMENTS.slice(0, 3).join('\n')}\n`
    const doc = block.repeat(Math.ceil(1_000_000 / block.length))
    const whole = render([doc])
    // One renderChunk call per character: re-lexing what came before on each call would not finish.
    expect(render(doc)).toEqual(whole)
    expect(whole.length).toBeGreaterThan(10_000)
  })

  it('is linear on a line without end and a line of stray delimiters', () => {
    const long = 'a'.repeat(500_000)
    expect(render(long)).toEqual([{text: long}, {text: '\n'}])
    const stars = '*_[~'.repeat(50_000)
    // Markers pair up as emphasis where they can; what matters is that it finishes, chunking aside.
    expect(render(stars)).toEqual(render([stars]))
  })
})

describe('paintSpans', () => {
  const spans: StyledSpan[] = [
    {style: {bold: true}, text: 'b'},
    {text: ' '},
    {style: {link: 'https://x.dev'}, text: 'docs'},
    {text: '\n'},
  ]

  it('writes plain text, links as "text (url)", without colour', () => {
    expect(paintSpans(spans, new Chalk({level: 0}))).toBe('b docs (https://x.dev)\n')
    expect(paintSpans([{style: {link: 'https://x.dev'}, text: 'https://x.dev'}], new Chalk({level: 0}))).toBe(
      'https://x.dev',
    )
  })

  it('writes SGR styles and OSC-8 hyperlinks with colour', () => {
    const painted = paintSpans(spans, new Chalk({level: 1}))
    expect(painted).toContain('\u001B[1mb')
    expect(painted).toContain('\u001B]8;;https://x.dev\u001B\\')
    expect(painted).toContain('\u001B]8;;\u001B\\')
    const sgr = new RegExp(String.raw`\u001B\[[\d;]*m`, 'g')
    const osc8 = new RegExp(String.raw`\u001B\]8;;[^\u001B]*\u001B\\`, 'g')
    expect(painted.replaceAll(sgr, '').replaceAll(osc8, '')).toBe('b docs\n')
  })
})
