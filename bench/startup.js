#!/usr/bin/env node
// `npm run bench`: start-up time of the built CLI against `node -e 0` and against the smallest
// oclif CLI (bench/peer-minimal-oclif), all in one interleaved run, and the targets.
// Writes the table into bench/RESULTS.md between its markers; the analysis around them stays.
// Usage: node bench/startup.js [--runs N] [--warmup N] [--no-write]
import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {cpus, loadavg, release, totalmem} from 'node:os'
import {join} from 'node:path'
import {parseArgs} from 'node:util'

import {makeBenchHome} from './bench-home.js'
import {measureInterleaved} from './measure.js'

const root = join(import.meta.dirname, '..')
const resultsFile = join(import.meta.dirname, 'RESULTS.md')
const BEGIN = '<!-- bench/startup.js: begin (generated, do not edit) -->'
const END = '<!-- bench/startup.js: end -->'

const {values: opts} = parseArgs({
  options: {
    'no-write': {type: 'boolean'},
    runs: {default: '30', type: 'string'},
    warmup: {default: '3', type: 'string'},
  },
})

if (!existsSync(join(root, 'dist', 'commands'))) {
  console.error('bench: build first (npm run build): dist/commands is missing')
  process.exit(1)
}

const configGet = ['config', 'get', 'model']

const node = process.execPath
const cli = join(root, 'bin', 'run.js')
const peer = join(import.meta.dirname, 'peer-minimal-oclif', 'bin', 'run.js')
const cases = [
  {args: ['-e', '0'], command: node, name: 'node -e 0'},
  {args: [peer, 'config', 'get', 'model'], command: node, name: 'peer: minimal oclif, config get model'},
  {args: [cli, '--version'], command: node, name: 'hanzo-dev --version'},
  {args: [cli, '--help'], command: node, name: 'hanzo-dev --help'},
  {args: [cli, ...configGet], command: node, name: `hanzo-dev ${configGet.join(' ')}`},
]

const box = makeBenchHome()
const runs = Number(opts.runs)
const warmup = Number(opts.warmup)
const loadBefore = loadavg()
let timings
try {
  timings = measureInterleaved(cases, {
    cwd: box.home,
    env: box.env,
    onRound: (r) => process.stderr.write(`\rround ${r + 1}/${warmup + runs}`),
    runs,
    warmup,
  })
} finally {
  process.stderr.write('\n')
  box.cleanup()
}

const loadAfter = loadavg()

const [nodeT, peerT, versionT, helpT, configT] = timings
const ratio = (t, base) => t.median / base.median
const targets = [
  {limit: 1.3, name: '`--version` vs node', value: ratio(versionT, nodeT)},
  {limit: 2.5, name: '`--help` vs node', value: ratio(helpT, nodeT)},
  {limit: 2.5, name: `\`${configGet.join(' ')}\` vs node`, value: ratio(configT, nodeT)},
  {limit: 1.1, name: `\`${configGet.join(' ')}\` vs the minimal oclif CLI`, value: ratio(configT, peerT)},
]

const fmt = (n) => n.toFixed(1)
const cpu = cpus()
const lines = [
  BEGIN,
  `Run: ${new Date().toISOString()}, ${runs} runs per case after ${warmup} warm-up rounds, interleaved.`,
  `Machine: ${cpu[0]?.model ?? 'unknown CPU'} x${cpu.length}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ` +
    `${process.platform} ${release()}, Node.js ${process.version}. ` +
    `Load average (1 min) ${loadBefore[0].toFixed(2)} before, ${loadAfter[0].toFixed(2)} after.`,
  '',
  '| command | median ms | IQR ms | vs node | vs peer |',
  '|---|---:|---:|---:|---:|',
  ...timings.map(
    (t) =>
      `| ${t.name} | ${fmt(t.median)} | ${fmt(t.q1)}–${fmt(t.q3)} | ${ratio(t, nodeT).toFixed(2)}x | ${ratio(t, peerT).toFixed(2)}x |`,
  ),
  '',
  '| target | measured | limit | result |',
  '|---|---:|---:|---|',
  ...targets.map(
    (t) => `| ${t.name} | ${t.value.toFixed(2)}x | ${t.limit}x | ${t.value <= t.limit ? 'pass' : 'FAIL'} |`,
  ),
  END,
]
const block = lines.join('\n')
console.log(block)

if (!opts['no-write']) {
  const old = existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : `# Start-up benchmark\n\n${BEGIN}\n${END}\n`
  const start = old.indexOf(BEGIN)
  const end = old.indexOf(END)
  const next =
    start === -1 || end === -1
      ? `${old.trimEnd()}\n\n${block}\n`
      : old.slice(0, start) + block + old.slice(end + END.length)
  writeFileSync(resultsFile, next)
  console.error(`bench: wrote ${resultsFile}`)
}
