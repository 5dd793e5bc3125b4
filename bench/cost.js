#!/usr/bin/env node
// What prompt caching saves on a long session (issue [context-economics], benchmark): a scripted
// 50-turn session (49 file reads, then the answer) is run by the real CLI through each wire
// format against the fake model server, and the request bodies it sent are read back. A real
// prompt cache serves the longest prefix a request shares with the one before it: that is
// worked out here from the bodies (about 4 bytes a token), in the order the provider renders a
// prompt (tools, system, messages), with the `cache_control` markers themselves left out (they
// are not prompt text). Anthropic caches only up to a breakpoint the earlier request marked;
// OpenAI caches any shared prefix. Prices are the bundled catalog's.
// A report, not a test: exits 0 when a target is missed.
// Usage: node bench/cost.js [--turns N] [--json]
import {spawn} from 'node:child_process'
import {existsSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {parseArgs} from 'node:util'

import {makeBenchHome} from './bench-home.js'

const root = join(import.meta.dirname, '..')
const dist = join(root, 'dist')
if (!existsSync(join(dist, 'testing', 'fake-model', 'server.js'))) {
  console.error('bench: build first (npm run build): dist/ is missing')
  process.exit(1)
}

const {startFakeModel} = await import(join(dist, 'testing', 'fake-model', 'server.js'))
const {modelInfo} = await import(join(dist, 'adapters', 'model-catalog.js'))

const {values: opts} = parseArgs({options: {json: {type: 'boolean'}, turns: {type: 'string', default: '50'}}})
const TURNS = Math.max(2, Number(opts.turns) || 50)
const BYTES_PER_TOKEN = 4
/** The conversation budget (`max_tokens`): compaction starts at 90% of it, about two thirds of the way through. */
const COMPACT_AT_TOKENS = 20_000
/** Words of the compaction's system prompt (SUMMARY_SYSTEM_PROMPT): its request is told apart by them. */
const SUMMARY_MARK = 'You compact the conversation'

/**
 * Each format with a model of its vendor, priced by the vendor's list; OpenAI's chat API twice:
 * gpt-4o, whose cache reads cost half its input, and gpt-5, as on the Responses API.
 */
const FORMATS = [
  {api: 'chat_completions', model: 'gpt-4o', vendor: 'openai'},
  {api: 'chat_completions', model: 'gpt-5', vendor: 'openai'},
  {api: 'responses', model: 'gpt-5', vendor: 'openai'},
  {api: 'anthropic_messages', model: 'claude-sonnet-4-5', vendor: 'anthropic'},
]

/** A source file of about 1.6 KB, different for each `n`. */
function sourceFile(n) {
  const lines = [`// module ${n}: part of the replayed session's project`]
  for (let i = 0; i < 40; i++) lines.push(`export const value${n}_${i} = ${(n * 7919 + i * 104_729) % 100_003}`)
  return `${lines.join('\n')}\n`
}

/** The recorded session: a file read a turn, then the answer. */
function script() {
  const turns = []
  for (let i = 1; i < TURNS; i++)
    turns.push({text: `Reading part ${i}.`, tool_calls: [{arguments: {path: `src/part${i}.ts`}, name: 'fs_read'}]})
  turns.push({text: 'Every part exports constants; none imports another.'})
  return {turns}
}

function runCli(args, options) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'run.js'), ...args], {
      ...options,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.stdout.resume()
    child.on('close', (code) => resolve({code, stderr}))
  })
}

/**
 * The prompt as a provider renders it, in blocks: tools, system, then messages (Anthropic: each
 * content block); each block's bytes without its `cache_control`, and whether it carried one.
 */
function promptBlocks(api, body) {
  const blocks = []
  const add = (value) => {
    if (value === undefined) return
    const {cache_control: marker, ...rest} = typeof value === 'object' && value !== null ? value : {text: value}
    blocks.push({breakpoint: marker !== undefined, text: JSON.stringify(rest)})
  }

  for (const tool of body.tools ?? []) add(tool)
  if (api === 'chat_completions') for (const message of body.messages) add(message)
  if (api === 'responses') {
    add(body.instructions)
    for (const item of body.input) add(item)
  }

  if (api === 'anthropic_messages') {
    for (const block of typeof body.system === 'string' ? [body.system] : (body.system ?? [])) add(block)
    for (const message of body.messages) {
      add({role: message.role})
      for (const block of typeof message.content === 'string' ? [message.content] : message.content) add(block)
    }
  }

  let offset = 0
  return blocks.map((block) => ({...block, end: (offset += block.text.length)}))
}

/** How many of `a`'s blocks' bytes `b` starts with, block by block (a cache matches whole blocks, or tokens of them). */
function sharedPrefix(a, b) {
  let bytes = 0
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i].text, b[i].text]
    if (x === y) {
      bytes += x.length
      continue
    }

    let same = 0
    while (same < Math.min(x.length, y.length) && x[same] === y[same]) same++
    return bytes + same
  }

  return bytes
}

/** Per request: input bytes, what the cache could serve (read) and what it would store (write). */
function cacheByRequest(api, bodies) {
  const prompts = bodies.map((body) => promptBlocks(api, body))
  return prompts.map((blocks, index) => {
    const total = blocks.at(-1)?.end ?? 0
    const previous = prompts[index - 1]
    const shared = previous ? sharedPrefix(blocks, previous) : 0
    if (api !== 'anthropic_messages') return {read: shared, shared, total, write: 0}
    // Anthropic serves only up to a breakpoint the earlier request wrote, and stores up to this one's last.
    const written = (previous ?? []).filter((block) => block.breakpoint && block.end <= shared).map((b) => b.end)
    const read = Math.max(0, ...written)
    const last = Math.max(0, ...blocks.filter((block) => block.breakpoint).map((block) => block.end))
    return {read, shared, total, write: Math.max(0, last - read)}
  })
}

async function replay({api, model, vendor}) {
  const home = makeBenchHome()
  const project = join(home.home, 'project')
  mkdirSync(join(project, 'src'), {recursive: true})
  for (let i = 1; i < TURNS; i++) writeFileSync(join(project, 'src', `part${i}.ts`), sourceFile(i))
  const server = await startFakeModel(script())
  try {
    const settings = {
      max_tokens: COMPACT_AT_TOKENS,
      model,
      provider: 'fake',
      providers: {fake: {api, api_key: 'sk-bench', base_url: server.url}},
    }
    writeFileSync(join(home.home, '.config', 'hanzo', 'settings.json'), JSON.stringify(settings))
    const args = ['run', 'Read src/part1.ts to the last part, one a turn, then say how they relate.']
    const flags = ['--permission-mode', 'allow-reads', '--max-turns', String(TURNS + 5), '--output-format', 'json']
    const result = await runCli([...args, ...flags], {cwd: project, env: home.env})
    if (result.code !== 0) throw new Error(`${api}: the run failed (${result.code}): ${result.stderr.slice(0, 400)}`)
    const bodies = server.requests.filter((request) => request.method === 'POST').map((request) => request.body)
    // The compaction's summary request: it takes whichever scripted turn comes next, its text the summary.
    const compactions = bodies.flatMap((body, index) =>
      JSON.stringify(body).includes(SUMMARY_MARK) ? [index + 1] : [],
    )
    const sizes = bodies.map((body) => JSON.stringify(body).length)
    const requests = cacheByRequest(api, bodies)
    const later = requests.slice(1)
    const sum = (items, key) => items.reduce((total, item) => total + item[key], 0)
    const price = modelInfo(vendor, model)
    const tokens = (bytes) => bytes / BYTES_PER_TOKEN
    const uncached = tokens(sum(requests, 'total')) * price.inputPerMTok
    const cached = requests.reduce(
      (total, {read, total: all, write}) =>
        total +
        tokens(all - read - write) * price.inputPerMTok +
        tokens(read) * (price.cacheReadPerMTok ?? price.inputPerMTok) +
        tokens(write) * (price.cacheWritePerMTok ?? price.inputPerMTok),
      0,
    )
    return {
      api,
      bytesPerTurn: sizes,
      cachedShare: sum(later, 'read') / sum(later, 'total'),
      compactions,
      costRatio: cached / uncached,
      model,
      prices: price,
      requests: bodies.length,
      sharedShare: sum(later, 'shared') / sum(later, 'total'),
      usd: {cached: cached / 1e6, uncached: uncached / 1e6},
    }
  } finally {
    await server.close()
    home.cleanup()
  }
}

const results = []
for (const format of FORMATS) results.push(await replay(format))

if (opts.json) {
  console.log(JSON.stringify(results, null, 2))
} else {
  const percent = (share) => `${(share * 100).toFixed(1)}%`
  const at = [1, 10, 20, 30, 40, TURNS].filter((turn, index, all) => turn <= TURNS && all.indexOf(turn) === index)
  console.log(
    `${TURNS}-turn session (file reads, a compaction at 90% of max_tokens ${COMPACT_AT_TOKENS}), bytes ~ ${BYTES_PER_TOKEN} per token\n`,
  )
  console.log(
    '| format | model | requests | compaction at request | prefix shared with the last request, turns >= 2 | served from the cache (provider rules) | billed input with caching / without | input $ without -> with |',
  )
  console.log('|---|---|---:|---:|---:|---:|---:|---:|')
  for (const r of results)
    console.log(
      `| ${r.api} | ${r.model} | ${r.requests} | ${r.compactions.join(', ') || 'none'} | ${percent(r.sharedShare)} | ${percent(r.cachedShare)} | ${r.costRatio.toFixed(2)}x | $${r.usd.uncached.toFixed(3)} -> $${r.usd.cached.toFixed(3)} |`,
    )
  console.log(`\nbytes sent per request as the session grows\n`)
  console.log(`| format | ${at.map((turn) => `turn ${turn}`).join(' | ')} |`)
  console.log(`|---|${at.map(() => '---:').join('|')}|`)
  for (const r of results)
    console.log(
      `| ${r.api} (${r.model}) | ${at.map((turn) => `${(r.bytesPerTurn[turn - 1] / 1024).toFixed(1)} KB`).join(' | ')} |`,
    )
  console.log(
    `\nprices (USD/M input, cache read, cache write): ${[...new Set(results.map((r) => `${r.model} ${r.prices.inputPerMTok}/${r.prices.cacheReadPerMTok ?? '-'}/${r.prices.cacheWritePerMTok ?? '-'}`))].join('; ')}`,
  )
}
