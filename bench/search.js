#!/usr/bin/env node
// fs_grep and fs_glob (from the built dist/, called in-process as the agent calls them) against
// ripgrep run as a process on the same tree with the same rules, interleaved; then our built-in
// path (ripgrep hidden from PATH) against the same peer. Prints medians and ratios, and exits 1
// when our results differ from ripgrep's (a report, not a test: a missed target exits 0).
// Usage: node bench/search.js [--tree DIR] [--runs N]   (default tree: this repo's node_modules)
import {spawnSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {cpus, loadavg} from 'node:os'
import {delimiter, join} from 'node:path'
import {parseArgs} from 'node:util'

import {quantile} from './measure.js'

const root = join(import.meta.dirname, '..')
const tools = join(root, 'dist', 'adapters', 'tools')
if (!existsSync(join(tools, 'fs-grep.js'))) {
  console.error('bench: build first (npm run build): dist/adapters/tools is missing')
  process.exit(1)
}

const {values: opts} = parseArgs({options: {runs: {type: 'string', default: '7'}, tree: {type: 'string'}}})
const tree = opts.tree ?? join(root, 'node_modules')
const RUNS = Number(opts.runs)
const rg = (process.env.PATH ?? '')
  .split(delimiter)
  .map((dir) => join(dir, 'rg'))
  .find((file) => existsSync(file))
if (!rg) {
  console.error('bench: ripgrep (rg) is not on PATH: apt-get install ripgrep')
  process.exit(1)
}

const [{fsGrep}, {fsGlob}] = await Promise.all([import(join(tools, 'fs-grep.js')), import(join(tools, 'fs-glob.js'))])
const context = {cwd: tree, sessionId: 'bench', signal: new AbortController().signal}

// The peer walks as our tools do: .gitignore files only (also outside git), hidden files, never
// .git, no symlinks followed; a grep skips files over 1 MB and binary files (fs_glob lists them).
const RG_WALK = [
  '--no-config',
  '--hidden',
  '--no-require-git',
  '--no-ignore-global',
  '--no-ignore-exclude',
  '--no-ignore-dot',
  '--no-ignore-parent',
  '--no-messages',
  '-g',
  '!.git',
]
const QUERIES = [
  {kind: 'grep', name: 'grep `function`', pattern: 'function'},
  {kind: 'grep', name: 'grep, no match', pattern: 'zq_no_such_token_xv'},
  {kind: 'grep', name: 'grep alternation', pattern: 'require\\(|import\\('},
  {case_insensitive: true, kind: 'grep', name: 'grep -i `todo`', pattern: 'todo'},
  {kind: 'grep', name: 'grep `\\bexport default\\b`', pattern: '\\bexport default\\b'},
  {glob: '*.json', kind: 'grep', name: 'grep `"version"` in *.json', pattern: '"version"'},
  {kind: 'glob', name: 'glob **/package.json', pattern: '**/package.json'},
  {kind: 'glob', name: 'glob **/*.d.ts', pattern: '**/*.d.ts'},
]

async function ours(query) {
  const result =
    query.kind === 'glob'
      ? await fsGlob.execute({pattern: query.pattern}, context)
      : await fsGrep.execute(
          {
            case_insensitive: query.case_insensitive,
            glob: query.glob,
            output_mode: 'files_with_matches',
            pattern: query.pattern,
          },
          context,
        )
  if (result.is_error) throw new Error(`${query.name}: ${result.error ?? result.output}`)
  return files(result.output)
}

function peer(query) {
  const args =
    query.kind === 'glob'
      ? [...RG_WALK, '--files', '-g', query.pattern]
      : [
          ...RG_WALK,
          '--max-filesize',
          '1M',
          '-l',
          ...(query.case_insensitive ? ['-i'] : []),
          ...(query.glob ? ['-g', query.glob] : []),
          '-e',
          query.pattern,
        ]
  const run = spawnSync(rg, [...args, '.'], {cwd: tree, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024})
  if (run.status === 2 || run.error) throw new Error(`rg ${query.name}: ${run.error?.message ?? run.stderr}`)
  return files(
    run.stdout
      .split('\n')
      .map((line) => line.replace(/^\.\//, ''))
      .join('\n'),
  )
}

/** A result's file list, sorted, without the tools' notes; `more` counts the files past their cap (`… and N more`). */
function files(output) {
  const lines = output.split('\n')
  const list = lines
    .filter((line) => line !== '' && !line.startsWith('[') && !line.startsWith('No ') && !line.startsWith('…'))
    .sort()
  const more = Number(/^(?:\[)?… and (\d+) more/m.exec(output)?.[1] ?? 0)
  return Object.assign(list, {more})
}

async function time(fn) {
  const start = process.hrtime.bigint()
  const value = await fn()
  return {ms: Number(process.hrtime.bigint() - start) / 1e6, value}
}

function median(samples) {
  return quantile(
    [...samples].sort((a, b) => a - b),
    0.5,
  )
}

async function measure(label) {
  const rows = []
  let differ = false
  for (const query of QUERIES) {
    const samples = {ours: [], peer: []}
    let compared = false
    for (let round = 0; round < RUNS + 1; round++) {
      // Alternate which goes first; round 0 warms both up and is not counted.
      const order = round % 2 === 0 ? ['ours', 'peer'] : ['peer', 'ours']
      const got = {}
      for (const who of order) {
        const {ms, value} = await time(() => (who === 'ours' ? ours(query) : peer(query)))
        got[who] = value
        if (round > 0) samples[who].push(ms)
      }

      if (!compared) {
        compared = true
        const peerFiles = new Set(got.peer)
        const extra = got.ours.filter((f) => !peerFiles.has(f))
        const missing = got.peer.length - (got.ours.length - extra.length)
        // Our tools cap their lists (fs_glob 1000 paths, fs_grep 1000 files) and count the rest: equal when
        // every file listed is rg's and listed + counted is rg's number.
        if (extra.length > 0 || got.ours.length + got.ours.more !== got.peer.length) {
          differ = true
          console.error(
            `${label}: ${query.name}: results differ (${missing} only in rg, ${extra.length} only ours; ours lists ${got.ours.length} + ${got.ours.more} more): ${extra.slice(0, 5).join(', ')}`,
          )
        }
      }
    }

    const o = median(samples.ours)
    const p = median(samples.peer)
    rows.push(
      `| ${query.name} | ${o.toFixed(1)} | ${p.toFixed(1)} | ${(o / p).toFixed(2)}x | ${o / p <= 1.5 ? 'pass' : 'FAIL'} |`,
    )
  }

  return {differ, rows}
}

console.log(
  `Tree: ${tree}; ${RUNS} runs per query, interleaved. Machine: ${cpus()[0]?.model ?? '?'} x${cpus().length}, Node.js ${process.version}, load ${loadavg()[0].toFixed(2)}.`,
)
const header = '| query | ours ms | ripgrep ms | ours / rg | <= 1.5x |\n|---|---:|---:|---:|---|'
const withRg = await measure('with ripgrep')
console.log(`\nfs_grep / fs_glob with ripgrep on PATH:\n\n${header}\n${withRg.rows.join('\n')}`)
process.env.PATH = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((dir) => !existsSync(join(dir, 'rg')))
  .join(delimiter)
const builtIn = await measure('built in')
console.log(`\nThe built-in path (ripgrep not on PATH; the peer still runs):\n\n${header}\n${builtIn.rows.join('\n')}`)
process.exitCode = withRg.differ || builtIn.differ ? 1 : 0
