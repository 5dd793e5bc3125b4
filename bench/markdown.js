#!/usr/bin/env node
// Streaming markdown (MdRenderer, from the built dist/) against marked, in one run, on an
// assistant-like document fed in token-sized chunks:
// - ours: renderChunk per chunk, then flush (each line parsed once);
// - marked once: the whole document lexed and rendered in one call (no streaming; the floor);
// - naive streaming: marked over everything received so far after every chunk, as a UI that
//   re-renders the message per delta does (quadratic: run on a smaller document).
// A report, not a test: read the ratios. Usage: node bench/markdown.js [--kb N]
import {marked} from 'marked'
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {parseArgs} from 'node:util'

import {quantile} from './measure.js'

const dist = join(import.meta.dirname, '..', 'dist', 'core', 'markdown', 'index.js')
if (!existsSync(dist)) {
  console.error('bench: build first (npm run build): dist/core/markdown is missing')
  process.exit(1)
}

const {MdRenderer} = await import(dist)
const {values: opts} = parseArgs({options: {kb: {default: '256', type: 'string'}}})

const BLOCK = `## Step

First **read** the *code* in \`src/core\`, then run [the tests](https://example.com/tests).

- one item with ~~old~~ new text
  - a nested item
1. numbered

> a quoted note

| file | lines |
|:-----|------:|
| a.ts | 120 |
| b.ts | 3400 |

\`\`\`ts
export function parse(input: string): number {
  // why: the model streams tokens
  return input.length * 2
}
\`\`\`

`

function documentOf(kb) {
  return BLOCK.repeat(Math.ceil((kb * 1024) / BLOCK.length))
}

/** Token-sized chunks (1-6 characters), from a fixed seed so every run feeds the same ones. */
function chunksOf(text) {
  let s = 7
  const out = []
  for (let at = 0; at < text.length; ) {
    s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0
    const size = 1 + (s % 6)
    out.push(text.slice(at, at + size))
    at += size
  }

  return out
}

function time(fn, runs) {
  fn()
  const samples = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    fn()
    samples.push(performance.now() - start)
  }

  return quantile(samples.sort((a, b) => a - b), 0.5)
}

const ours = (chunks) => () => {
  const renderer = new MdRenderer()
  let n = 0
  for (const chunk of chunks) n += renderer.renderChunk(chunk).length
  return n + renderer.flush().length
}

const markedOnce = (text) => () => marked.parse(text, {async: false}).length

const naive = (chunks) => () => {
  let text = ''
  let n = 0
  for (const chunk of chunks) {
    text += chunk
    n += marked.parse(text, {async: false}).length
  }

  return n
}

const kb = Number(opts.kb)
const doc = documentOf(kb)
const chunks = chunksOf(doc)
const small = documentOf(16)
const smallChunks = chunksOf(small)

const rows = [
  [`ours, ${kb} KB in ${chunks.length} chunks`, time(ours(chunks), 7)],
  [`marked once, ${kb} KB`, time(markedOnce(doc), 7)],
  [`ours, 16 KB in ${smallChunks.length} chunks`, time(ours(smallChunks), 7)],
  [`naive re-render with marked, 16 KB in ${smallChunks.length} chunks`, time(naive(smallChunks), 3)],
]

console.log(`Node.js ${process.version}; medians.`)
console.log('| case | ms | vs ours (same size) |')
console.log('|---|---:|---:|')
for (const [index, [name, ms]] of rows.entries()) {
  const base = rows[index < 2 ? 0 : 2][1]
  console.log(`| ${name} | ${ms.toFixed(1)} | ${(ms / base).toFixed(2)}x |`)
}
