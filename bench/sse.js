#!/usr/bin/env node
// Throughput of our SSE parser (SseFrameBuffer, from the built dist/) against the peer
// eventsource-parser v3, on the issue's workloads, each fed as strings and as bytes.
// A report, not a test: exits 0 when a target is missed, 1 only when the parsers disagree.
// Usage: node bench/sse.js [--forks N] [--json]
import {createParser} from 'eventsource-parser'
import {spawnSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {cpus, loadavg} from 'node:os'
import {join} from 'node:path'
import {StringDecoder} from 'node:string_decoder'
import {fileURLToPath} from 'node:url'
import {parseArgs} from 'node:util'
import v8 from 'node:v8'
import vm from 'node:vm'

import {quantile} from './measure.js'

const dist = join(import.meta.dirname, '..', 'dist', 'core', 'protocol', 'index.js')
if (!existsSync(dist)) {
  console.error('bench: build first (npm run build): dist/core/protocol is missing')
  process.exit(1)
}

const {SseFrameBuffer} = await import(dist)
const {values: opts} = parseArgs({
  options: {case: {type: 'string'}, forks: {type: 'string', default: '3'}, json: {type: 'boolean'}},
})

const WARMUP = 2
const MIN_RUNS = 7
// Few runs of a fast case are mostly timer and GC noise: keep going until each side has this much.
const MIN_TOTAL_MS = 300
const MAX_RUNS = 500
// The 10 MB frame is past our 16 Mi default; the peer has no limit unless given one.
const OUR_MAX_BUFFER = 32 * 1024 * 1024
const encoder = new TextEncoder()

// A full GC before each measurement. Without it, a mark-compact that building the inputs set off
// can finish during the first parser runs; V8 then sees those runs' objects as survivors,
// pretenures their allocation sites, and every later run promotes its garbage: 2-8x slower, at
// random (node --trace-pretenuring-statistics shows it).
v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc')

// A fixed-seed generator, so every run (and every machine) benchmarks the same stream.
function random(seed) {
  let s = seed
  return () => (s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32
}

const WORDS = [
  'The',
  ' model',
  ' streams',
  ' tokens',
  ' one',
  ' at',
  ' a',
  ' time',
  ',',
  ' and',
  ' each',
  ' chunk',
  ' is',
  ' small',
  '.',
  ' Here',
  "'s",
  ' code',
  ':\n',
  '```ts',
  ' function',
  ' parse',
  '()',
  ' {',
  ' return',
  ' x',
  ' }',
  '\n\n',
]
// Some non-ASCII (2-, 3- and 4-byte UTF-8, surrogate pairs) so byte chunks split characters.
const UNICODE = [' café', ' naïve façade', ' 日本語のテキスト', ' Привет, мир', ' 🚀✨ emoji', ' Ünïcödé — “quotes”']

function chatStream(frames) {
  const next = random(42)
  const datas = []
  for (let i = 0; i < frames; i++) {
    let content = ''
    for (let w = 1 + Math.floor(next() * 4); w > 0; w--) content += WORDS[Math.floor(next() * WORDS.length)]
    if (i % 97 === 0) content += UNICODE[(i / 97) % UNICODE.length]
    datas.push(
      JSON.stringify({
        id: 'chatcmpl-AbCdEfGhIjKlMnOpQrStUvWxYz012',
        object: 'chat.completion.chunk',
        created: 1_733_140_000 + Math.floor(i / 40),
        model: 'gpt-4o-mini',
        choices: [{index: 0, delta: {content}, finish_reason: null}],
      }),
    )
  }

  datas.push('[DONE]')
  return datas.map((d) => `data: ${d}\n\n`).join('')
}

// Cut at the last frame end within `limit` bytes, so both input kinds hold the same whole events.
function prefixBytes(bytes, limit) {
  let end = Math.min(limit, bytes.length)
  while (end > 1 && !(bytes[end - 1] === 10 && bytes[end - 2] === 10)) end--
  return bytes.subarray(0, end)
}

function bigFrame(size) {
  const unit = '{"token":"lorem ipsum dolor","n":12345,"ok":true},'
  return `data: [${unit.repeat(Math.ceil(size / unit.length)).slice(0, size - 2)}]\n\n`
}

const split = (input, size) => {
  const out = []
  for (let i = 0; i < input.length; i += size)
    out.push(typeof input === 'string' ? input.slice(i, i + size) : input.subarray(i, i + size))
  return out
}

// Each workload as strings and as bytes; `bytes` (UTF-8 size) is the MB/s denominator for both.
function workloads() {
  const chat = chatStream(20_000)
  const chatBytes = encoder.encode(chat)
  const headBytes = prefixBytes(chatBytes, 200 * 1024)
  const head = new TextDecoder().decode(headBytes)
  const list = [
    {name: '(a) chat 20k frames, 64 B chunks', text: chat, bytes: chatBytes, chunk: 64},
    {name: '(b) chat first 200 KB, 1 B chunks', text: head, bytes: headBytes, chunk: 1},
  ]
  for (const mb of [1, 5, 10]) {
    const text = bigFrame(mb * 1024 * 1024)
    list.push({name: `(c) one ${mb} MB frame, 4 KB chunks`, text, bytes: encoder.encode(text), chunk: 4096, mb})
  }

  return list.flatMap((w) => [
    {...w, kind: 'string', size: w.bytes.length, chunks: split(w.text, w.chunk)},
    {...w, kind: 'bytes', size: w.bytes.length, chunks: split(w.bytes, w.chunk)},
  ])
}

// Reading a character makes V8 flatten a string built from pieces, as JSON.parse would: each
// parser pays for the data it hands over, whether it copied it already or left that to the reader.
function touch(data) {
  return data.length + (data.length > 0 && data.charCodeAt(data.length - 1) === -1 ? 1 : 0)
}

// `keep` collects the data strings for the one comparison run; timed runs only count and sum.
function runOurs(chunks, keep) {
  const parser = new SseFrameBuffer({maxBufferSize: OUR_MAX_BUFFER})
  let events = 0
  let length = 0
  const onFrame = (f) => {
    events++
    length += touch(f.data)
    if (keep) keep.push(f.data)
  }

  for (const chunk of chunks) for (const f of parser.feed(chunk)) onFrame(f)
  for (const f of parser.end()) onFrame(f)
  return {events, length}
}

function runPeer(chunks, keep) {
  let events = 0
  let length = 0
  const parser = createParser({
    onEvent(e) {
      events++
      length += touch(e.data)
      if (keep) keep.push(e.data)
    },
  })
  if (typeof chunks[0] === 'string') {
    for (const chunk of chunks) parser.feed(chunk)
  } else {
    // The peer takes strings only: decode with the decoder ours uses inside (StringDecoder, one
    // call per chunk), flushing at the end as end() does, so the ratio compares parsers alone.
    const decoder = new StringDecoder('utf8')
    for (const chunk of chunks) parser.feed(decoder.write(chunk))
    const tail = decoder.end()
    if (tail) parser.feed(tail)
  }

  return {events, length}
}

// For the one-frame workloads (c), the least any parser must do: decode the input as both
// parsers decode it, and make the one copy that hands the frame's data over flat (the data is
// all but 8 characters of the input). What a parser takes above it is its own work; `parse-only`
// compares that. (For (a) and (b) one joined string is not a lower bound: parsers copy per event.)
function runFloor(chunks) {
  let text
  if (typeof chunks[0] === 'string') {
    text = chunks.join('')
  } else {
    const decoder = new StringDecoder('utf8')
    const parts = chunks.map((chunk) => decoder.write(chunk))
    parts.push(decoder.end())
    text = parts.join('')
  }

  return {events: 0, length: touch(text)}
}

function fail(message) {
  console.error(`bench/sse: the parsers disagree: ${message}`)
  process.exit(1)
}

// Compares every event's data once, after all timing: keeping 20k events alive would teach V8
// that the parsers' allocation sites make survivors (the pretenuring trap described above).
function verify(w) {
  const ours = []
  const peer = []
  runOurs(w.chunks, ours)
  runPeer(w.chunks, peer)
  const label = `${w.name}, ${w.kind}`
  if (ours.length !== peer.length) fail(`${label}: ours ${ours.length} events, peer ${peer.length}`)
  const at = ours.findIndex((d, i) => d !== peer[i])
  if (at !== -1) {
    let c = 0
    while (ours[at][c] === peer[at][c]) c++
    const near = (d) => JSON.stringify(d.slice(Math.max(0, c - 40), c + 40))
    fail(`${label}: event ${at} differs at character ${c}: ours ${near(ours[at])}, peer ${near(peer[at])}`)
  }

  if (w.name.startsWith('(a)') && (ours.length !== 20_001 || ours.at(-1) !== '[DONE]'))
    fail(`${label}: expected 20001 events ending in [DONE], got ${ours.length}`)
}

function measure(w) {
  gc()
  const first = {}
  const sides = [['ours', runOurs], ['peer', runPeer], ...(w.mb ? [['floor', runFloor]] : [])]
  const times = {floor: [], ours: [], peer: []}
  const total = (xs) => xs.reduce((a, b) => a + b, 0)
  for (let round = 0; ; round++) {
    // ABBA order: neither side always runs first, right after the other side's garbage.
    for (const [side, run] of round % 2 === 0 ? sides : sides.toReversed()) {
      const start = performance.now()
      const got = run(w.chunks)
      const ms = performance.now() - start
      first[side] ??= got
      if (got.events !== first[side].events || got.length !== first[side].length) {
        fail(
          `${w.name}, ${w.kind}, ${side}: ${got.events} events / ${got.length} chars, its first run had ${first[side].events} / ${first[side].length}`,
        )
      }

      if (round >= WARMUP) times[side].push(ms)
    }

    if (round === 0 && (first.ours.events !== first.peer.events || first.ours.length !== first.peer.length)) {
      fail(
        `${w.name}, ${w.kind}: ours ${first.ours.events} events / ${first.ours.length} chars, peer ${first.peer.events} / ${first.peer.length}`,
      )
    }

    const runs = round + 1 - WARMUP
    if (
      runs >= MAX_RUNS ||
      (runs >= MIN_RUNS && total(times.ours) >= MIN_TOTAL_MS && total(times.peer) >= MIN_TOTAL_MS)
    )
      break
  }

  const stat = (xs) => {
    const ms = quantile(
      xs.toSorted((a, b) => a - b),
      0.5,
    )
    return {ms: roundTo(ms, 3), mbPerS: roundTo(w.size / 1e6 / (ms / 1e3), 1)}
  }

  const ours = stat(times.ours)
  const peer = stat(times.peer)
  const floor = w.mb ? stat(times.floor) : undefined
  // Above a floor within noise of both, the ratio is not defined.
  const parseRatio =
    floor && ours.ms > floor.ms * 1.01 && peer.ms > floor.ms * 1.01
      ? roundTo((peer.ms - floor.ms) / (ours.ms - floor.ms), 2)
      : undefined
  return {
    workload: w.name,
    input: w.kind,
    bytes: w.size,
    chunks: w.chunks.length,
    events: first.ours.events,
    runs: times.ours.length,
    ours,
    peer,
    floor,
    ratio: roundTo(peer.ms / ours.ms, 2),
    parseRatio,
    mb: w.mb,
  }
}

const roundTo = (x, digits) => Number(x.toFixed(digits))

const inputs = workloads()
if (opts.case !== undefined) {
  const w = inputs[Number(opts.case)]
  const result = measure(w)
  verify(w)
  console.log(JSON.stringify(result))
  process.exit(0)
}

// Every measurement runs in fresh processes (as JMH forks): in one process, the JIT feedback one
// workload leaves (64-character chunks, bytes) shapes the code the next one runs, and it skews
// the two parsers differently, by up to 2x either way. Of `--forks` processes per workload, the
// one with the median ratio is reported: one process's luck with the machine does not decide.
function fork(i) {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--case', String(i)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  if (child.status !== 0) process.exit(child.status ?? 1)
  return JSON.parse(child.stdout)
}

const forks = Math.max(1, Number(opts.forks) || 1)
const results = inputs.map((_, i) => {
  const runs = Array.from({length: forks}, () => fork(i)).sort((a, b) => a.ratio - b.ratio)
  return runs[Math.floor(runs.length / 2)]
})

const targets = []
for (const kind of ['string', 'bytes']) {
  // (c) has no speed target against the peer: both sit on the floor its rows print (see RESULTS.md).
  for (const prefix of ['(a)', '(b)']) {
    const r = results.find((x) => x.workload.startsWith(prefix) && x.input === kind)
    targets.push({
      target: `${prefix} ${kind}: ours/peer speed`,
      measured: r.ratio,
      limit: '>= 1.1',
      pass: r.ratio >= 1.1,
    })
  }

  const big = (mb) => results.find((x) => x.mb === mb && x.input === kind)
  const growth = roundTo(big(10).ours.ms / big(5).ours.ms, 2)
  targets.push(
    {target: `(c) ${kind}: time(10 MB) / time(5 MB), ours`, measured: growth, limit: '<= 2.2', pass: growth <= 2.2},
    {
      target: `(c) ${kind}: 10 MB throughput, ours (MB/s)`,
      measured: big(10).ours.mbPerS,
      limit: '>= 250',
      pass: big(10).ours.mbPerS >= 250,
    },
  )
}

const machine = `${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, Node.js ${process.version}, load average (1 min) ${loadavg()[0].toFixed(2)}`

if (opts.json) {
  console.log(
    JSON.stringify(
      {date: new Date().toISOString(), machine, results: results.map(({mb: _mb, ...r}) => r), targets},
      null,
      2,
    ),
  )
} else {
  console.log(`${new Date().toISOString()}  ${machine}`)
  console.log(
    'Median wall time per whole stream; MB/s = UTF-8 input size (10^6 bytes) / median; ratio = peer time / our time.',
  )
  console.log(
    'floor ((c) only) = decoding the input as both parsers do and the one copy of the frame a reader finds flat; parse-only = (peer - floor) / (ours - floor), - when a side is within 1% of the floor.\n',
  )
  console.log(
    '| workload | input | runs | ours ms | peer ms | floor ms | ours MB/s | peer MB/s | ours/peer | parse-only |',
  )
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|')
  for (const r of results) {
    console.log(
      `| ${r.workload} | ${r.input} | ${r.runs} | ${r.ours.ms.toFixed(2)} | ${r.peer.ms.toFixed(2)} | ${r.floor?.ms.toFixed(2) ?? '-'} | ${r.ours.mbPerS.toFixed(1)} | ${r.peer.mbPerS.toFixed(1)} | ${r.ratio.toFixed(2)}x | ${r.parseRatio === undefined ? '-' : `${r.parseRatio.toFixed(2)}x`} |`,
    )
  }

  console.log('\n| target | measured | limit | result |')
  console.log('|---|---:|---:|---|')
  for (const t of targets) console.log(`| ${t.target} | ${t.measured} | ${t.limit} | ${t.pass ? 'pass' : 'FAIL'} |`)
}
