#!/usr/bin/env node
// web_fetch (from the built dist/) of an HTML page (1 MB by default, the figure) served on
// 127.0.0.1, against node-html-markdown (what web_fetch loads) converting the same HTML directly.
// web_fetch converts only the first WEB_FETCH_HTML_CHARS of a page (the library's time grows faster
// than the page), so the like-for-like case is the library on that prefix: the difference is the
// request, the checks (address, rules) and the decoding. --whole adds the library on the whole
// page, once (minutes at 1 MB). A report, not a test: read the ratio.
// Usage: node bench/web-fetch.js [--kb N] [--runs N] [--whole]
import {existsSync} from 'node:fs'
import {createServer} from 'node:http'
import {join} from 'node:path'
import {parseArgs} from 'node:util'
import {NodeHtmlMarkdown} from 'node-html-markdown'

import {quantile} from './measure.js'

const tools = join(import.meta.dirname, '..', 'dist', 'adapters', 'tools', 'web-fetch.js')
if (!existsSync(tools)) {
  console.error('bench: build first (npm run build): dist/adapters/tools/web-fetch.js is missing')
  process.exit(1)
}

const {WEB_FETCH_HTML_CHARS, webFetchTool} = await import(tools)
const {values} = parseArgs({
  options: {kb: {default: '1024', type: 'string'}, runs: {default: '3', type: 'string'}, whole: {type: 'boolean'}},
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
const prefix = page.slice(0, WEB_FETCH_HTML_CHARS)
const direct = await time(async () => NodeHtmlMarkdown.translate(prefix))
const whole = values.whole ? await time(async () => NodeHtmlMarkdown.translate(page), 1, false) : undefined
server.close()

console.log(
  `web_fetch of ${(page.length / 1024).toFixed(0)} KB of HTML on 127.0.0.1, medians of ${runs} runs after one warm-up`,
)
console.log('| case | median ms | output chars | vs direct |')
console.log('|---|---:|---:|---:|')
const prefixKb = (prefix.length / 1024).toFixed(0)
for (const [name, {median, size}] of [
  [`node-html-markdown directly on the first ${prefixKb} KB (what web_fetch converts)`, direct],
  ['web_fetch of the whole page (request, checks, conversion)', fetched],
  ...(whole ? [['node-html-markdown directly on the whole page (one run)', whole]] : []),
])
  console.log(`| ${name} | ${median.toFixed(1)} | ${size} | ${(median / direct.median).toFixed(2)}x |`)
