#!/usr/bin/env node
// What a checkpoint adds to a turn that changes 1, 10 and 100 files of a 2,000-file git
// repository, next to `git stash create` on the same tree (the cost of a snapshot by git, what a
// shadow-repository checkpoint would pay at least). Two ways a turn changes files: edit tools
// (each file read and stored before its first change) and one command (the workspace scanned
// before it, stored where it changed since the last scan, and its sizes and times looked at
// after). The checkpoint code runs in-process from dist/, as the session runs it; git runs as a
// process, as it would. Medians of --runs rounds after one warm-up; a report, not a test.
// Usage: node bench/checkpoints.js [--runs N] [--files N]
import {execFileSync, spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {cpus, loadavg, tmpdir} from 'node:os'
import {join} from 'node:path'
import {parseArgs} from 'node:util'

import {quantile} from './measure.js'

const root = join(import.meta.dirname, '..')
const capture = join(root, 'dist', 'adapters', 'checkpoints', 'capture.js')
if (!existsSync(capture)) {
  console.error('bench: build first (npm run build): dist/adapters/checkpoints is missing')
  process.exit(1)
}

const {values: opts} = parseArgs({
  options: {files: {type: 'string', default: '2000'}, runs: {type: 'string', default: '7'}},
})
const FILES = Number(opts.files)
const RUNS = Number(opts.runs)
/** How long the model takes before its first tool call, in the bench: a fast model's first answer. */
const MODEL_THINKS_MS = 500
const {CheckpointRecorder} = await import(capture)

const home = mkdtempSync(join(tmpdir(), 'hanzo-bench-checkpoints-'))
const project = join(home, 'project')
const git = (...args) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], {cwd: project})

// 2,000 files of 1-4 KB in 40 directories, with a .gitignore and an ignored build directory.
const paths = []
for (let i = 0; i < FILES; i++) {
  const dir = join(project, 'src', `mod${i % 40}`)
  mkdirSync(dir, {recursive: true})
  const path = join('src', `mod${i % 40}`, `file${i}.ts`)
  writeFileSync(join(project, path), `export const value${i} = ${i}\n`.repeat(20 + (i % 100)))
  paths.push(path)
}

mkdirSync(join(project, 'dist'))
writeFileSync(join(project, 'dist', 'bundle.js'), 'x'.repeat(100_000))
writeFileSync(join(project, '.gitignore'), 'dist/\n')
git('init', '-q')
git('add', '.')
git('commit', '-qm', 'init')

let prompt = 0
const recorder = new CheckpointRecorder({
  dir: join(home, 'data', 'checkpoints', 'project'),
  hidden: [join(home, 'data')],
  maxFileBytes: 1024 * 1024,
  prompt: () => prompt,
  root: project,
  session: 'bench',
})

let round = 0
const change = (count) => {
  round++
  for (const path of paths.slice(0, count)) writeFileSync(join(project, path), `// round ${round}\n`, {flag: 'a'})
}

const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6

/** A turn of edit tools: each file recorded before it is changed. The change itself is not counted. */
async function editTurn(count) {
  prompt++
  let spent = 0
  for (const path of paths.slice(0, count)) {
    const start = process.hrtime.bigint()
    await recorder.beforeEdit({input: {path}, kind: 'edit', locations: [{path}], name: 'fs_write'})
    spent += ms(start)
    writeFileSync(join(project, path), `// round ${++round}\n`, {flag: 'a'})
  }

  return spent
}

/**
 * A turn of one command that changes `count` files: what the turn waits for, the command left out.
 * The scan before it starts with the prompt, while the model thinks (a model answers in seconds,
 * the scan takes tens of milliseconds): its time is the turn's only where it is not done yet.
 */
async function commandTurn(count) {
  prompt++
  recorder.promptStarted()
  await new Promise((resolve) => setTimeout(resolve, MODEL_THINKS_MS))
  let command = 0
  const start = process.hrtime.bigint()
  await recorder.aroundCommand(async () => {
    const inner = process.hrtime.bigint()
    change(count)
    command = ms(inner)
  })
  return ms(start) - command
}

/** `git stash create` on the tree with `count` files changed (it makes a commit object, no ref). */
function stashCreate(count) {
  change(count)
  const start = process.hrtime.bigint()
  const result = spawnSync('git', ['stash', 'create'], {cwd: project, stdio: ['ignore', 'pipe', 'pipe']})
  const spent = ms(start)
  if (result.status !== 0) throw new Error(`git stash create failed: ${result.stderr}`)
  git('checkout', '-q', '--', '.')
  return spent
}

// The first scan of a project reads every file: a one-time cost, measured on its own.
prompt++
const firstStart = process.hrtime.bigint()
await recorder.aroundCommand(async () => {})
const firstScan = ms(firstStart)

const rows = []
for (const count of [1, 10, 100]) {
  const samples = {command: [], edit: [], stash: []}
  for (let r = 0; r < RUNS + 1; r++) {
    // Rotated, so a machine that gets busier part-way shifts every case alike.
    const order = [
      ['edit', () => editTurn(count)],
      ['command', () => commandTurn(count)],
      ['stash', () => stashCreate(count)],
    ]
    for (let k = 0; k < order.length; k++) {
      const [name, run] = order[(k + r) % order.length]
      const spent = await run()
      if (r > 0) samples[name].push(spent)
    }

    git('checkout', '-q', '--', '.')
  }

  const median = (list) =>
    quantile(
      [...list].sort((a, b) => a - b),
      0.5,
    )
  rows.push({
    command: median(samples.command),
    count,
    edit: median(samples.edit),
    stash: median(samples.stash),
  })
}

rmSync(home, {force: true, recursive: true})
const f = (value) => value.toFixed(1)
console.log(
  `checkpoints, ${FILES}-file git repository, median of ${RUNS} rounds (Node ${process.version}, ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)})`,
)
console.log(`first scan of the project (every file read and stored once): ${f(firstScan)} ms`)
console.log('| files changed | edit tools | one command | git stash create | edit / stash | command / stash |')
console.log('|---:|---:|---:|---:|---:|---:|')
for (const row of rows)
  console.log(
    `| ${row.count} | ${f(row.edit)} ms | ${f(row.command)} ms | ${f(row.stash)} ms | ${(row.edit / row.stash).toFixed(2)}x | ${(row.command / row.stash).toFixed(2)}x |`,
  )
