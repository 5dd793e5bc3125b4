#!/usr/bin/env node
// Streaming markdown (MdRenderer, from the built dist/) against marked, in one run, on an
// assistant-like document fed in token-sized chunks:
// - ours: renderChunk per chunk, then flush (each line parsed once);
// - ours painted: the same, the spans painted to a colour terminal's text (what the UI writes);
// - marked once: the whole document lexed and rendered to HTML in one call (no streaming; the floor);
// - marked + marked-terminal once: the same, rendered for a terminal (the peer of "ours painted");
// - naive streaming: marked over everything received so far after every chunk, as a UI that
//   re-renders the message per delta does (quadratic: run on a smaller document).
// A report, not a test: read the ratios. Usage: node bench/markdown.js [--kb N] [--no-naive]
// bench/interactive.js imports measureMarkdown to report the same on 1 MB.
import chalk, {Chalk} from 'chalk'
import {Marked, marked} from 'marked'
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {parseArgs} from 'node:util'

import {quantile} from './measure.js'

const dist = join(import.meta.dirname, '..', 'dist')
if (!existsSync(join(dist, 'core', 'markdown', 'index.js'))) {
  console.error('bench: build first (npm run build): dist/core/markdown is missing')
  process.exit(1)
}

const {MdRenderer} = await import(join(dist, 'core', 'markdown', 'index.js'))
const {paintSpans} = await import(join(dist, 'adapters', 'markdown-paint.js'))
// Both painters write colour, as on a terminal: marked-terminal through chalk's shared instance,
// and its code highlighter (cli-highlight, with a chalk of its own) through FORCE_COLOR, read
// when it is imported.
const colour = new Chalk({level: 3})
chalk.level = 3
process.env.FORCE_COLOR = '3'
const {markedTerminal} = await import('marked-terminal')
const terminalMarked = new Marked().use(markedTerminal())

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
  for (let at = 0; at < text.length;) {
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

  return quantile(
    samples.sort((a, b) => a - b),
    0.5,
  )
}

const ours = (chunks) => () => {
  const renderer = new MdRenderer()
  let n = 0
  for (const chunk of chunks) n += renderer.renderChunk(chunk).length
  return n + renderer.flush().length
}

const oursPainted = (chunks) => () => {
  const renderer = new MdRenderer()
  let n = 0
  for (const chunk of chunks) n += paintSpans(renderer.renderChunk(chunk), colour).length
  return n + paintSpans(renderer.flush(), colour).length
}

const markedOnce = (text) => () => marked.parse(text, {async: false}).length

const markedTerminalOnce = (text) => () => terminalMarked.parse(text, {async: false}).length

const naive = (chunks) => () => {
  let text = ''
  let n = 0
  for (const chunk of chunks) {
    text += chunk
    n += marked.parse(text, {async: false}).length
  }

  return n
}

/**
 * The cases on a `kb` KB document (and the naive re-render on 16 KB unless `naive` is false):
 * `[name, median ms, the row it is compared with]`, medians of `runs` runs after one warm-up.
 */
export function measureMarkdown({kb, naive: withNaive = true, runs = 7}) {
  const doc = documentOf(kb)
  const chunks = chunksOf(doc)
  const rows = [
    [`ours, ${kb} KB in ${chunks.length} chunks`, time(ours(chunks), runs), 0],
    [`marked once, ${kb} KB (no streaming)`, time(markedOnce(doc), runs), 0],
    [`ours painted for a terminal, ${kb} KB in ${chunks.length} chunks`, time(oursPainted(chunks), runs), 2],
    [`marked + marked-terminal once, ${kb} KB (no streaming)`, time(markedTerminalOnce(doc), runs), 2],
  ]
  if (withNaive) {
    const small = documentOf(16)
    const smallChunks = chunksOf(small)
    rows.push([`ours, 16 KB in ${smallChunks.length} chunks`, time(ours(smallChunks), runs), 4])
    rows.push([
      `naive re-render with marked per chunk, 16 KB in ${smallChunks.length} chunks`,
      time(naive(smallChunks), 3),
      4,
    ])
  }

  return rows
}

/** The rows as a markdown table, each against its base row. */
export function markdownTable(rows) {
  return [
    '| case | ms | vs ours (same size) |',
    '|---|---:|---:|',
    ...rows.map(([name, ms, base]) => `| ${name} | ${ms.toFixed(1)} | ${(ms / rows[base][1]).toFixed(2)}x |`),
  ].join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const {values: opts} = parseArgs({options: {kb: {default: '256', type: 'string'}, 'no-naive': {type: 'boolean'}}})
  console.log(`Node.js ${process.version}; medians.`)
  console.log(markdownTable(measureMarkdown({kb: Number(opts.kb), naive: !opts['no-naive']})))
}
