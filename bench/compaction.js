#!/usr/bin/env node
// Session compaction (issue [sessions]), from the built dist/:
// (1) compacting a 10,000-message session on the fallback path (the summary call fails at
//     once: the transcript is rendered, then the digest written), next to the reference
//     JSON.stringify of the same history (what sending it once costs, which every request pays);
// (2) token accounting over a 1,000-turn session, turn by turn: our TokenLedger (counts kept per
//     message, only new messages estimated) against the peer "recount" (the same estimate summed
//     over the whole history every turn, as a loop that keeps no counts does).
// A report, not a test: exits 0 when a target is missed, 1 only when a result is wrong.
// Usage: node bench/compaction.js [--rounds N] [--json]
import {Buffer} from 'node:buffer'
import {existsSync} from 'node:fs'
import {arch, cpus, loadavg, platform} from 'node:os'
import {join} from 'node:path'
import {parseArgs} from 'node:util'
import v8 from 'node:v8'
import vm from 'node:vm'

import {quantile} from './measure.js'

const agentDir = join(import.meta.dirname, '..', 'dist', 'core', 'agent')
if (!existsSync(join(agentDir, 'compaction.js'))) {
  console.error('bench: build first (npm run build): dist/core/agent/compaction.js is missing')
  process.exit(1)
}

const {SessionCompactor} = await import(join(agentDir, 'compaction.js'))
const {historyTokens, TokenLedger} = await import(join(agentDir, 'token-count.js'))

const {values: opts} = parseArgs({options: {json: {type: 'boolean'}, rounds: {type: 'string', default: '7'}}})
const ROUNDS = Math.max(1, Number(opts.rounds) || 7)
const SESSION_MESSAGES = 10_000
const SESSION_TURNS = 1000
const WINDOW = 100
const COMPACTIONS_PER_ROUND = 15
const SESSIONS_PER_ROUND = 10

// A full GC before each block, so no block pays for the garbage of the one before it.
v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc')

function fail(message) {
  console.error(`bench/compaction: ${message}`)
  process.exit(1)
}

// A fixed-seed generator, so every run (and every machine) benchmarks the same session.
function random(seed) {
  let s = seed
  return () => (s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32
}

const next = random(7)
const pick = (min, max) => min + Math.floor(next() * (max - min))
const prose = (bytes) =>
  'The parser fails on empty input; check src/parse.ts and the tests. '.repeat(Math.ceil(bytes / 68)).slice(0, bytes)
const code = (bytes) =>
  'export function parse(input: string) {\n  return input.split(",").map(Number)\n}\n'
    .repeat(Math.ceil(bytes / 80))
    .slice(0, bytes)

/**
 * One turn of a coding session, as the loop appends it: sometimes a user message first, then an
 * assistant message with one to three tool calls (now and then an fs_write with a whole file)
 * and their results (0.2-8 KB, one in ten failed), or a plain answer.
 */
function turn(index) {
  const messages = []
  if (index % 6 === 0) messages.push({content: prose(pick(60, 400)), role: 'user'})
  if (index % 6 === 5) {
    messages.push({content: prose(pick(100, 600)), role: 'assistant', toolCalls: []})
    return messages
  }

  const calls = []
  for (let c = pick(1, 4); c > 0; c--) {
    const id = `call_${index}_${c}`
    const write = next() < 0.05
    const input = write ? {content: code(pick(1000, 4000)), path: 'src/parse.ts'} : {path: `src/file${pick(0, 50)}.ts`}
    calls.push({arguments: JSON.stringify(input), id, input, name: write ? 'fs_write' : 'fs_read'})
  }

  messages.push({content: next() < 0.3 ? prose(pick(20, 200)) : '', role: 'assistant', toolCalls: calls})
  for (const call of calls) {
    messages.push({
      content: code(pick(200, 8000)),
      isError: next() < 0.1,
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
    })
  }

  return messages
}

const SYSTEM = {content: prose(6000), role: 'system'}

function session(messageCount) {
  const history = [SYSTEM]
  for (let i = 0; history.length < messageCount; i++) history.push(...turn(i))
  return history
}

const turns = Array.from({length: SESSION_TURNS}, (_, i) => turn(i))
const big = session(SESSION_MESSAGES + 1).slice(0, SESSION_MESSAGES + 1)
// The cut may have left an assistant message without all its results: end on a whole turn.
while (big.at(-1).role === 'assistant' && big.at(-1).toolCalls.length > 0) big.pop()
const bigBytes = Buffer.byteLength(JSON.stringify(big))

const compactor = new SessionCompactor({
  maxTokens: 200_000,
  reserveRecent: 4,
  summarize: () => Promise.reject(new Error('503 overloaded')),
})

function checkCompaction(result) {
  if (result.strategy !== 'truncation') fail(`compaction: strategy ${result.strategy}, not truncation`)
  if (result.messages[0] !== big[0] || result.messages.at(-1) !== big.at(-1))
    fail('compaction: lost the system prompt or the last message')
  if (result.messages.length + result.compacted_count !== big.length + 1)
    fail(`compaction: ${result.messages.length} messages out, ${result.compacted_count} compacted, ${big.length} in`)
}

// Times `run` over `runs` inputs made by `prepare` (untimed); returns the median ms.
async function timed(runs, prepare, run) {
  const samples = []
  for (let i = 0; i < runs; i++) {
    const input = prepare()
    const start = performance.now()
    await run(input)
    samples.push(performance.now() - start)
  }

  return quantile(
    samples.toSorted((a, b) => a - b),
    0.5,
  )
}

const compactionContenders = {
  // The loop has counted every message already (its ledger): the counts are there.
  'ours (warm counts)': () =>
    timed(
      COMPACTIONS_PER_ROUND,
      () => big,
      async (history) => checkCompaction(await compactor.compact(history)),
    ),
  // Fresh message objects: every message is estimated too.
  'ours (cold counts)': () =>
    timed(
      COMPACTIONS_PER_ROUND,
      () => structuredClone(big),
      (history) => compactor.compact(history),
    ),
  'JSON.stringify(history)': () =>
    timed(
      COMPACTIONS_PER_ROUND,
      () => big,
      (history) => JSON.stringify(history),
    ),
}

// The peer: the same estimate as token-count.ts, without counts kept anywhere.
function recountTokens(history) {
  let total = 0
  for (const message of history) {
    total += 4 + Math.ceil(Buffer.byteLength(message.content, 'utf8') / 4)
    for (const call of message.toolCalls ?? [])
      total += 4 + Math.ceil((Buffer.byteLength(call.name, 'utf8') + Buffer.byteLength(call.arguments, 'utf8')) / 4)
  }

  return total
}

/**
 * SESSIONS_PER_ROUND sessions of SESSION_TURNS turns: each turn appends its messages and asks
 * for the history's tokens. Returns the time per turn in each window of WINDOW turns (median
 * over the sessions) and every turn's total, to compare.
 */
function accounting(count) {
  const windows = Array.from({length: SESSION_TURNS / WINDOW}, () => [])
  let totals
  for (let s = 0; s < SESSIONS_PER_ROUND; s++) {
    const fresh = structuredClone(turns)
    const history = [structuredClone(SYSTEM)]
    const counter = count()
    totals = []
    for (let w = 0; w < windows.length; w++) {
      const start = performance.now()
      for (let t = w * WINDOW; t < (w + 1) * WINDOW; t++) {
        history.push(...fresh[t])
        totals.push(counter(history))
      }

      windows[w].push((performance.now() - start) / WINDOW)
    }
  }

  return {
    perTurnMs: windows.map((w) =>
      quantile(
        w.toSorted((a, b) => a - b),
        0.5,
      ),
    ),
    totals,
  }
}

const accountingContenders = {
  'ours (TokenLedger.sync)': () =>
    accounting(() => {
      const ledger = new TokenLedger()
      return (history) => ledger.sync(history)
    }),
  'peer: recount the whole history': () => accounting(() => recountTokens),
}

// Before timing: our compaction on the fallback path, and our counts equal to the recount.
checkCompaction(await compactor.compact(big))
if (historyTokens(structuredClone(big)) !== recountTokens(big)) fail('token-count.ts and the recount disagree')
const reference = accountingContenders['peer: recount the whole history']().totals
const ours = accountingContenders['ours (TokenLedger.sync)']().totals
if (ours.some((total, i) => total !== reference[i])) fail('TokenLedger and the recount disagree on some turn')

// Rounds alternate the order: a machine that gets busier part-way does not favour one side.
const compactionSamples = Object.fromEntries(Object.keys(compactionContenders).map((name) => [name, []]))
const accountingSamples = Object.fromEntries(Object.keys(accountingContenders).map((name) => [name, []]))
for (let round = 0; round < ROUNDS; round++) {
  const order = (names) => (round % 2 === 0 ? names : names.toReversed())
  for (const name of order(Object.keys(compactionContenders))) {
    gc()
    compactionSamples[name].push(await compactionContenders[name]())
  }

  for (const name of order(Object.keys(accountingContenders))) {
    gc()
    accountingSamples[name].push(accountingContenders[name]().perTurnMs)
  }
}

const median = (xs) =>
  quantile(
    xs.toSorted((a, b) => a - b),
    0.5,
  )
const round = (x, digits) => Number(x.toFixed(digits))
const compaction = Object.fromEntries(
  Object.entries(compactionSamples).map(([name, xs]) => [name, round(median(xs), 3)]),
)
const perTurnUs = Object.fromEntries(
  Object.entries(accountingSamples).map(([name, rounds]) => [
    name,
    rounds[0].map((_, w) => round(median(rounds.map((r) => r[w])) * 1000, 3)),
  ]),
)
const first = (name) => perTurnUs[name][0]
const last = (name) => perTurnUs[name].at(-1)
const OURS = 'ours (TokenLedger.sync)'
const PEER = 'peer: recount the whole history'
const ratios = {
  compactionPerStringify: round(compaction['ours (warm counts)'] / compaction['JSON.stringify(history)'], 2),
  oursGrowth: round(last(OURS) / first(OURS), 2),
  peerGrowth: round(last(PEER) / first(PEER), 2),
  peerPerOursLastWindow: round(last(PEER) / last(OURS), 1),
}
const targets = [
  {
    target: 'compaction of 10,000 messages, warm counts (ms)',
    measured: compaction['ours (warm counts)'],
    limit: '< 20',
    pass: compaction['ours (warm counts)'] < 20,
  },
  {
    target: 'compaction of 10,000 messages, cold counts (ms)',
    measured: compaction['ours (cold counts)'],
    limit: '< 20',
    pass: compaction['ours (cold counts)'] < 20,
  },
  {
    target: 'ours: per-turn time, turns 901-1000 / turns 1-100',
    measured: ratios.oursGrowth,
    limit: '<= 1.5 (flat: O(new message))',
    pass: ratios.oursGrowth <= 1.5,
  },
]

const machine = `${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, ${platform()}-${arch()}, Node.js ${process.version}, load average (1 min) ${loadavg()[0].toFixed(2)}`
const sessionInfo = `${big.length} messages, ${(bigBytes / 1e6).toFixed(1)} MB as JSON, ${historyTokens(big)} estimated tokens`
if (opts.json) {
  console.log(
    JSON.stringify(
      {
        compaction,
        date: new Date().toISOString(),
        machine,
        perTurnUs,
        ratios,
        rounds: ROUNDS,
        session: sessionInfo,
        targets,
      },
      null,
      2,
    ),
  )
} else {
  console.log(`${new Date().toISOString()}  ${machine}`)
  console.log(`(1) Compaction, fallback path (the summary call rejects at once), reserve_recent 4: ${sessionInfo}.`)
  console.log(
    `Median of ${ROUNDS} rounds (each the median of ${COMPACTIONS_PER_ROUND} runs), order reversed every round.\n`,
  )
  console.log('| contender | ms |')
  console.log('|---|---:|')
  for (const [name, ms] of Object.entries(compaction)) console.log(`| ${name} | ${ms.toFixed(2)} |`)
  console.log(
    `\nours (warm) / JSON.stringify: ${ratios.compactionPerStringify.toFixed(2)}x the time of serializing the history once.\n`,
  )
  console.log(
    `(2) Token accounting over a ${SESSION_TURNS}-turn session (${turns.flat().length} messages), µs per turn in each window of ${WINDOW} turns`,
  )
  console.log(
    `(median of ${SESSIONS_PER_ROUND} sessions per round, then of ${ROUNDS} rounds); both give the same total on every turn.\n`,
  )
  console.log(`| contender | ${perTurnUs[OURS].map((_, w) => `${w * WINDOW + 1}-${(w + 1) * WINDOW}`).join(' | ')} |`)
  console.log(`|---|${perTurnUs[OURS].map(() => '---:').join('|')}|`)
  for (const [name, us] of Object.entries(perTurnUs))
    console.log(`| ${name} | ${us.map((x) => x.toFixed(2)).join(' | ')} |`)
  console.log(
    `\nGrowth (last window / first): ours ${ratios.oursGrowth.toFixed(2)}x, peer ${ratios.peerGrowth.toFixed(2)}x; at turns 901-1000 the peer takes ${ratios.peerPerOursLastWindow}x our time.\n`,
  )
  console.log('| target | measured | limit | result |')
  console.log('|---|---:|---:|---|')
  for (const t of targets) console.log(`| ${t.target} | ${t.measured} | ${t.limit} | ${t.pass ? 'pass' : 'FAIL'} |`)
}
