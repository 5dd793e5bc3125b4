#!/usr/bin/env node
// Where a command's start-up time goes: oclif's own Performance markers (process uptime, config
// load, each plugin, hooks, command load and run; the minimum over the runs, the least noisy
// estimate on a busy machine) and how many modules each package adds. Not a benchmark.
// Usage: node bench/startup-profile.js [--runs N] [--peer] -- <arguments, e.g. --help>
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {parseArgs} from 'node:util'
import {spawnSync} from 'node:child_process'

import {makeBenchHome} from './bench-home.js'

const {positionals, values: opts} = parseArgs({
  allowPositionals: true,
  options: {peer: {type: 'boolean'}, runs: {default: '7', type: 'string'}},
})
const bin = opts.peer
  ? join(import.meta.dirname, 'peer-minimal-oclif', 'bin', 'run.js')
  : join(import.meta.dirname, '..', 'bin', 'run.js')

// oclif reads its settings from globalThis.oclif; the markers print through DEBUG=oclif:perf.
const enablePerf = `data:text/javascript,${encodeURIComponent('globalThis.oclif = {performanceEnabled: true}')}`
const recorder = pathToFileURL(join(import.meta.dirname, 'record-modules.js')).href

const box = makeBenchHome()
const run = (env) =>
  spawnSync(process.execPath, [bin, ...positionals], {cwd: box.home, encoding: 'utf8', env: {...box.env, ...env}})
// Keyed by the label and its parents (hooks print in the order they finish, which varies).
const lines = new Map()
let modules
try {
  for (let i = 0; i < Number(opts.runs); i++) {
    const {stderr} = run({DEBUG: 'oclif:perf', NODE_OPTIONS: `--import=${enablePerf}`})
    const parents = []
    for (const l of stderr.split('\n')) {
      const m = l.match(/oclif:perf (\s*)(.+?):(?: ([\d.]+)ms)?\s*(?:\+\d+ms)?$/)
      if (!m) continue
      const [, indent, label, ms] = m
      parents.length = indent.length
      parents[indent.length] = label
      const key = parents.join('/')
      const value = ms === undefined ? Number.NaN : Number(ms)
      const seen = lines.get(key)
      lines.set(key, {indent, label, ms: seen ? Math.min(seen.ms, value) : value})
    }
  }

  // A run of its own: the recorder's loader thread slows every import down.
  const list = join(box.home, 'modules.txt')
  run({NODE_OPTIONS: `--import=${recorder}`, RECORD_MODULES_TO: list})
  modules = [
    ...new Set(
      readFileSync(list, 'utf8')
        .split('\n')
        .filter((m) => m.startsWith('file:')),
    ),
  ]
} finally {
  box.cleanup()
}

console.log(`${opts.peer ? 'peer' : 'hanzo-dev'} ${positionals.join(' ')}: oclif markers, min of ${opts.runs} runs`)
for (const l of lines.values())
  console.log(`  ${l.indent}${l.label}${Number.isNaN(l.ms) ? '' : `: ${l.ms.toFixed(1)} ms`}`)

const byPackage = new Map()
for (const url of modules) {
  const pkg =
    url.match(/\/node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1] ??
    url.replace(/^.*?\/((?:plugins\/[^/]+\/)?(?:dist|bin|src|bench|lib|commands))\/.*$/, '$1')
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + 1)
}

console.log(`\nmodules loaded: ${modules.length}`)
for (const [pkg, n] of [...byPackage].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(4)}  ${pkg}`)
