#!/usr/bin/env node
// web_fetch (from the built dist/) of an HTML page (1 MB by default, the figure) served on
// 127.0.0.1, against turndown (what web_fetch loads, with GitHub tables) converting the same HTML
// directly: the difference is the request, the checks (address, rules) and the decoding. A
// report, not a test: read the ratio.
// Usage: node bench/web-fetch.js [--kb N] [--runs N]
import {existsSync} from 'node:fs'
import {createServer} from 'node:http'
import {join} from 'node:path'
import {parseArgs} from 'node:util'
import {tables} from '@joplin/turndown-plugin-gfm'
import Turndown from 'turndown'

import {quantile} from './measure.js'

const tools = join(import.meta.dirname, '..', 'dist', 'adapters', 'tools', 'web-fetch.js')
if (!existsSync(tools)) {
  console.error('bench: build first (npm run build): dist/adapters/tools/web-fetch.js is missing')
  process.exit(1)
}

const {webFetchTool} = await import(tools)
const {values} = parseArgs({
  options: {kb: {default: '1024', type: 'string'}, runs: {default: '3', type: 'string'}},
})
const kb = Number(values.kb)
const runs = Number(values.runs)

const SECTION =
  '<h2>Section</h2><p>Some <b>bold</b> and <i>italic</i> text with <a href="/link">a link</a> and <code>code()</code>.</p><ul><li>one</li><li>two <em>items</em></li></ul><pre><code>const x = 1\n</code></pre><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>\n'
const page = `<html><body>${SECTION.repeat(Math.ceil((kb * 1024) / SECTION.length))}</body></html>`

const server = createServer((_request, response) => response.setHeader('content-type', 'text/html').end(page))
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const url = `http://127.0.0.1:${server.address().port}/`
// A rule naming the host, as the user would write it: loopback is refused otherwise.
const rule = {file: 'bench', mode: 'allow', pattern: 'web_fetch(domain:127.0.0.1)', tier: 'user'}
const tool = webFetchTool({judge: () => ({mode: 'allow', rule})})
const context = {cwd: process.cwd(), sessionId: 'bench', signal: new AbortController().signal}

async function time(fn, count = runs, warmUp = true) {
  let size = 0
  const times = []
  for (let i = warmUp ? 0 : 1; i <= count; i++) {
    const start = performance.now()
    size = (await fn()).length
    if (i > 0) times.push(performance.now() - start)
  }

  return {
    median: quantile(
      times.sort((a, b) => a - b),
      0.5,
    ),
    size,
  }
}

const fetched = await time(async () => {
  const result = await tool.execute({url}, context)
  if (result.is_error) throw new Error(result.error)
  return result.output
})
// Set up as web_fetch sets it up (src/adapters/tools/web-fetch.ts).
const turndown = new Turndown({bulletListMarker: '*', codeBlockStyle: 'fenced', headingStyle: 'atx'})
turndown.use(tables)
turndown.remove(['script', 'style', 'noscript', 'template'])
const direct = await time(async () => turndown.turndown(page))
server.close()

console.log(
  `web_fetch of ${(page.length / 1024).toFixed(0)} KB of HTML on 127.0.0.1, medians of ${runs} runs after one warm-up`,
)
console.log('| case | median ms | output chars | vs direct |')
console.log('|---|---:|---:|---:|')
for (const [name, {median, size}] of [
  ['turndown directly on the page (no request)', direct],
  ['web_fetch of the page (request, checks, conversion)', fetched],
])
  console.log(`| ${name} | ${median.toFixed(1)} | ${size} | ${(median / direct.median).toFixed(2)}x |`)
