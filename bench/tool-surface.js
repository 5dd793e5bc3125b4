#!/usr/bin/env node
// What every model request carries before the conversation: the system prompt and the tool
// schemas, in hanzo-dev's estimated tokens (4 bytes a token, `hanzo-dev tools --json`), for the
// default surface in a git repository and for `--tools fs,exec`, next to the figures published
// for Claude Code, Codex and Gemini CLI (no network here: their numbers are quoted, with the
// source, not measured in this run). A report, not a test: read the ratios.
// Usage: node bench/tool-surface.js
import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync} from 'node:fs'
import {join} from 'node:path'

import {makeBenchHome} from './bench-home.js'

const cli = join(import.meta.dirname, '..', 'bin', 'run.js')
if (!existsSync(join(import.meta.dirname, '..', 'dist', 'commands', 'tools.js'))) {
  console.error('bench: build first (npm run build): dist/commands/tools.js is missing')
  process.exit(1)
}

// Published per-request figures (system prompt + tool definitions, before any user text), each
// in its own model's tokenizer; `low`-`high` where the source gives a range.
const PEERS = [
  {
    name: 'Claude Code',
    low: 19_000,
    high: 19_000,
    source:
      'proxy capture of every API call of one session, ~19,000 tokens of system prompt + tool definitions per call (hpfreilabs.com, "Anatomy of a Claude Code Session")',
  },
  {
    name: 'Codex CLI',
    low: 4500,
    high: 7500,
    source:
      'derived: 2-5k tokens of system prompt + AGENTS.md and ~500 a built-in tool (codex.danielvaughan.com, "Codex CLI Performance Optimisation"), x 5 built-ins (shell, apply_patch, update_plan, view_image, web_search)',
  },
  {
    name: 'Gemini CLI',
    low: 36_600,
    high: 36_600,
    source:
      '"context baseline ~36.6k tokens per turn", quoted from a Gemini CLI token-efficiency proposal (zanova-blog.com, "Gemini CLI: Smart Code Extraction")',
  },
]

const bench = makeBenchHome()
try {
  const project = join(bench.home, 'project')
  mkdirSync(project)
  execFileSync('git', ['init', '-q'], {cwd: project})
  const surface = (...args) =>
    JSON.parse(execFileSync(process.execPath, [cli, 'tools', '--json', ...args], {cwd: project, env: bench.env}))
  const ours = [
    {name: 'hanzo-dev, default surface', surface: surface()},
    {name: 'hanzo-dev --tools fs,exec', surface: surface('--tools', 'fs,exec')},
  ]
  const figure = (n) => n.toLocaleString('en-US')
  const range = ({low, high}) => (low === high ? `~${figure(low)}` : `~${figure(low)}-${figure(high)}`)
  const ratio = (total, {low, high}) =>
    low === high ? `${(total / low).toFixed(2)}x` : `${(total / high).toFixed(2)}-${(total / low).toFixed(2)}x`

  console.log(
    `Run: ${new Date().toISOString()}, hanzo-dev tools --json in a fresh git repository (estimated tokens, 4 bytes a token).\n`,
  )
  console.log(
    `| surface | tools | system prompt | tool schemas | per request | ${PEERS.map((p) => `vs ${p.name}`).join(' | ')} |`,
  )
  console.log(`|---|---:|---:|---:|---:|${PEERS.map(() => '---:').join('|')}|`)
  for (const {name, surface: s} of ours) {
    const ratios = PEERS.map((peer) => ratio(s.totalTokens, peer)).join(' | ')
    console.log(
      `| ${name} | ${s.tools.length} | ${figure(s.systemPrompt.tokens)} | ${figure(s.toolTokens)} | ${figure(s.totalTokens)} | ${ratios} |`,
    )
  }
  for (const peer of PEERS)
    console.log(`| ${peer.name} (published) | | | | ${range(peer)} | ${PEERS.map(() => '').join(' | ')} |`)
  console.log('\nSources of the peer figures:')
  for (const peer of PEERS) console.log(`- ${peer.name}: ${peer.source}`)
} finally {
  bench.cleanup()
}
