#!/usr/bin/env node
// [lsp]'s benchmark: the time from start() to a file's first diagnostics through our LspClient
// against a bare vscode-jsonrpc client doing the same handshake by hand, on the same
// typescript-language-server and project, interleaved; and what fs_edit costs with the edit
// middleware's diagnostics enrichment against fs_edit alone, on a warm server.
// A report, not a test: exits 0 when a target is missed, 1 only when a contender fails.
// Usage: node bench/lsp.js [--runs N] [--edits N] [--json]   (npm run build first)
import {spawn} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {cpus, loadavg, tmpdir} from 'node:os'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {parseArgs} from 'node:util'

import {quantile} from './measure.js'

const root = join(import.meta.dirname, '..')
const lspDist = join(root, 'plugins', 'lsp', 'dist')
if (!existsSync(join(lspDist, 'lsp-client.js')) || !existsSync(join(root, 'dist', 'index.js'))) {
  console.error('bench: build first (npm run build): plugins/lsp/dist or dist/index.js is missing')
  process.exit(1)
}

const {LspClient} = await import(join(lspDist, 'lsp-client.js'))
const {ServerManager} = await import(join(lspDist, 'server-manager.js'))
const {readLspSettings} = await import(join(lspDist, 'lsp-settings.js'))
const {editDiagnostics} = await import(join(lspDist, 'edit-diagnostics.js'))
const {builtinTools} = await import(join(root, 'dist', 'index.js'))
const rpc = await import('vscode-jsonrpc/node')

const {values: opts} = parseArgs({
  options: {edits: {default: '30', type: 'string'}, json: {type: 'boolean'}, runs: {default: '8', type: 'string'}},
})
const RUNS = Number(opts.runs)
const EDITS = Number(opts.edits)
const SERVER = join(root, 'node_modules', '.bin', 'typescript-language-server')
const MAIN = "export const count: number = 'one'\nexport const name: string = 'x'\n"

const dir = mkdtempSync(join(tmpdir(), 'hanzo-bench-lsp-'))
const project = join(dir, 'project')
mkdirSync(join(project, 'src'), {recursive: true})
symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'))
writeFileSync(
  join(project, 'tsconfig.json'),
  JSON.stringify({compilerOptions: {module: 'NodeNext', strict: true, target: 'ES2022', types: []}, include: ['src']}),
)
writeFileSync(join(project, 'src', 'main.ts'), MAIN)
const rootUri = pathToFileURL(project).href
const fileUri = pathToFileURL(join(project, 'src', 'main.ts')).href
const env = {...process.env}

/** Ours: start(), open, diagnostics(); `settleMs` 0 takes the first publish, as the bare client does. */
async function ours(settleMs) {
  const started = performance.now()
  const client = new LspClient(SERVER, rootUri, {args: ['--stdio'], env, settleMs})
  try {
    await client.start()
    await client.openDocument(fileUri, 'typescript', MAIN)
    const items = await client.diagnostics(fileUri)
    return {count: items.length, ms: performance.now() - started}
  } finally {
    await client.shutdown()
  }
}

/** The least a client can do: spawn, initialize, initialized, didOpen, the first publish for the file. */
async function bare() {
  const started = performance.now()
  const child = spawn(SERVER, ['--stdio'], {cwd: project, detached: true, env, stdio: ['pipe', 'pipe', 'ignore']})
  const connection = rpc.createMessageConnection(
    new rpc.StreamMessageReader(child.stdout),
    new rpc.StreamMessageWriter(child.stdin),
  )
  connection.onRequest('workspace/configuration', (params) => params.items.map(() => ({})))
  connection.onRequest('window/workDoneProgress/create', () => null)
  connection.onRequest('client/registerCapability', () => null)
  const first = new Promise((resolve) => {
    connection.onNotification('textDocument/publishDiagnostics', (params) => {
      if (params.uri === fileUri) resolve(params.diagnostics.filter((d) => d.severity !== 4).length)
    })
  })
  connection.listen()
  try {
    await connection.sendRequest('initialize', {
      capabilities: {
        textDocument: {publishDiagnostics: {}},
        window: {workDoneProgress: true},
        workspace: {configuration: true},
      },
      processId: process.pid,
      rootUri,
      workspaceFolders: [{name: 'workspace', uri: rootUri}],
    })
    await connection.sendNotification('initialized', {})
    await connection.sendNotification('textDocument/didOpen', {
      textDocument: {languageId: 'typescript', text: MAIN, uri: fileUri, version: 1},
    })
    const count = await first
    return {count, ms: performance.now() - started}
  } finally {
    await connection.sendRequest('shutdown').catch(() => undefined)
    await connection.sendNotification('exit').catch(() => undefined)
    connection.dispose()
    try {
      process.kill(-child.pid, 'SIGKILL')
    } catch {
      // Gone already.
    }
  }
}

const contenders = {
  bare: {label: `bare vscode-jsonrpc client (first publish)`, run: bare},
  ours: {label: 'ours: LspClient, settleMs 0 (first publish)', run: () => ours(0)},
  oursDefault: {label: 'ours: LspClient, default 300 ms settle (what tools wait)', run: () => ours(undefined)},
}
const names = Object.keys(contenders)
const samples = Object.fromEntries(names.map((n) => [n, []]))

try {
  // One warm-up each: the first tsserver of a run also pays for the disk cache.
  for (const n of names) await contenders[n].run()
  for (let round = 0; round < RUNS; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse()
    for (const n of order) {
      const result = await contenders[n].run()
      if (result.count < 1) throw new Error(`${n}: the first diagnostics had no error (got ${result.count})`)
      samples[n].push(result.ms)
    }

    process.stderr.write(`\rround ${round + 1}/${RUNS}`)
  }

  process.stderr.write('\n')

  const editSamples = await editLatency()
  report(editSamples)
} catch (error) {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
} finally {
  rmSync(dir, {force: true, recursive: true})
}

/** fs_edit alone and wrapped in the enrichment, alternately, on one warm server; each edit adds then removes a type error. */
async function editLatency() {
  const fsEdit = builtinTools().find((t) => t.name === 'fs_edit')
  const plain = (call, context) => fsEdit.execute(call.input, context)
  const manager = new ServerManager({
    env,
    projectRoot: project,
    report: () => undefined,
    settings: readLspSettings({lsp: {project_servers: true}}),
  })
  const enriched = editDiagnostics(manager).wrap(plain)
  const context = {cwd: project, sessionId: 'bench', signal: new AbortController().signal}
  const file = await manager.cover('src/main.ts')
  await manager.diagnostics(file)
  const out = {enriched: [], plain: []}
  let broken = false
  try {
    for (let i = 0; i < EDITS * 2; i++) {
      const kind = i % 4 < 2 ? 'plain' : 'enriched'
      const input = broken
        ? {new_string: "'x'", old_string: '42', path: 'src/main.ts'}
        : {new_string: '42', old_string: "'x'", path: 'src/main.ts'}
      const started = performance.now()
      const result = await (kind === 'plain' ? plain : enriched)({input, name: 'fs_edit'}, context)
      out[kind].push(performance.now() - started)
      if (result.is_error) throw new Error(`fs_edit failed: ${result.output}`)
      if (kind === 'enriched' && !broken && !result.output.includes('New diagnostics'))
        throw new Error('the enriched edit that adds an error did not report it')
      broken = !broken
    }
  } finally {
    await manager.shutdown()
  }

  return out
}

function stats(list) {
  const sorted = [...list].sort((a, b) => a - b)
  return {p50: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), runs: sorted.length}
}

function report(edits) {
  const s = Object.fromEntries(names.map((n) => [n, stats(samples[n])]))
  const ratio = s.ours.p50 / s.bare.p50
  const e = {enriched: stats(edits.enriched), plain: stats(edits.plain)}
  const targets = [
    {limit: 1.1, name: 'start() to first diagnostics, ours / bare (p50)', pass: ratio <= 1.1, value: ratio},
  ]
  const machine = `${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, Node.js ${process.version}, load average (1 min) ${loadavg()[0].toFixed(2)}`
  if (opts.json) {
    console.log(JSON.stringify({date: new Date().toISOString(), edits: e, machine, start: s, targets}, null, 2))
    return
  }

  const f = (n) => n.toFixed(1)
  console.log(`${new Date().toISOString()}  ${machine}`)
  console.log(
    `typescript-language-server, one strict TypeScript file with a type error; ${RUNS} interleaved rounds after one warm-up each.\n`,
  )
  console.log('| start() to first diagnostics | p50 ms | p90 ms | vs bare |')
  console.log('|---|---:|---:|---:|')
  for (const n of names)
    console.log(`| ${contenders[n].label} | ${f(s[n].p50)} | ${f(s[n].p90)} | ${(s[n].p50 / s.bare.p50).toFixed(2)}x |`)
  console.log(`\n| fs_edit on a warm server (${EDITS} each, alternating) | p50 ms | p90 ms |`)
  console.log('|---|---:|---:|')
  console.log(`| fs_edit alone | ${f(e.plain.p50)} | ${f(e.plain.p90)} |`)
  console.log(`| fs_edit with diagnostics enrichment | ${f(e.enriched.p50)} | ${f(e.enriched.p90)} |`)
  console.log(`| added by the enrichment | ${f(e.enriched.p50 - e.plain.p50)} | |`)
  console.log('\n| target | measured | limit | result |')
  console.log('|---|---:|---:|---|')
  for (const t of targets)
    console.log(`| ${t.name} | ${t.value.toFixed(2)}x | ${t.limit}x | ${t.pass ? 'pass' : 'FAIL'} |`)
}
